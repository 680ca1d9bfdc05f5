/** Types of build/make-icons.mjs (the icon generator, a plain node script). */
export declare function encodePng(width: number, height: number, rgba: Uint8Array): Buffer;
export declare function renderIcon(size: number): Uint8Array;
