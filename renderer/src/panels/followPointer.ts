/**
 * Follows a drag begun on an element through window listeners, so it goes on
 * when the pointer leaves the element, or the element is re-created at a new
 * place mid-drag (a key diamond moved to another frame): `move` for every
 * pointer move, then `up` once at release, and the listeners are gone.
 */
export function followPointer(move: (e: PointerEvent) => void, up: (e: PointerEvent) => void = () => undefined): void {
  const end = (e: PointerEvent) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    up(e);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
}
