/**
 * Keyboard of a modal dialog (File > Export, the recovery question): while it
 * is open the app's shortcuts do not act on the document behind it (Space
 * played, S keyed, Ctrl+Z undid under the backdrop), Tab and Shift+Tab go
 * round the dialog's controls instead of leaving for the menus and panels
 * behind it, and Escape closes it when it has a cancel (it cleared the
 * selection behind the dialog and left the dialog open).
 *
 * The dialog's element carries `aria-modal="true"`; `modalOpen()` is what the
 * global shortcuts check.
 */
import { useEffect, type RefObject } from 'react';

/** Whether a modal dialog is open (the app's shortcuts wait until it closes). */
export function modalOpen(): boolean {
  return typeof document !== 'undefined' && document.querySelector('[aria-modal="true"]') !== null;
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [href], [tabindex]:not([tabindex="-1"])';

/** The next control Tab (or Shift+Tab, `back`) reaches inside `root`, going round at either end. */
export function nextInside(root: HTMLElement, active: Element | null, back: boolean): HTMLElement | null {
  const list = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === active);
  if (!list.length) return null;
  const i = active ? list.indexOf(active as HTMLElement) : -1;
  if (i < 0) return back ? list[list.length - 1] : list[0];
  return list[(i + (back ? list.length - 1 : 1)) % list.length];
}

export function useModalKeys(ref: RefObject<HTMLElement | null>, onEscape?: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const root = ref.current;
      if (!root) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        onEscape?.();
      } else if (e.key === 'Tab') {
        const next = nextInside(root, document.activeElement, e.shiftKey);
        e.preventDefault();
        next?.focus();
      } else if (!root.contains(document.activeElement)) {
        // A key with the focus outside the dialog (it was clicked away from): not the app's either.
        e.stopPropagation();
      }
    };
    // Capture: before the app's shortcut listener on window.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [ref, onEscape]);
}
