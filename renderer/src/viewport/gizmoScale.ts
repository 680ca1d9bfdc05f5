/**
 * A scale drag does not pass through 0: dragging the scale gizmo's handle
 * past the centre made a component 0 (the prop vanished, and its mass, the
 * simulator and the export throw on a zero scale) or flipped its sign (a
 * mirror the animator did not ask for). Each component keeps the sign it had
 * when the drag began and at least `MIN_DRAG_SCALE_RATIO` of its size then.
 * Mirroring stays possible by typing a negative scale in Properties.
 */
export const MIN_DRAG_SCALE_RATIO = 1e-3;

/** Holds `s` (x, y, z, in place) to the start's signs and ≥ MIN_DRAG_SCALE_RATIO × |start|; returns whether any component was held. */
export function holdDragScale(s: { x: number; y: number; z: number }, start: readonly [number, number, number]): boolean {
  let held = false;
  const hold = (v: number, s0: number): number => {
    const floor = MIN_DRAG_SCALE_RATIO * Math.abs(s0);
    const sign = s0 < 0 ? -1 : 1;
    if (Number.isFinite(v) && v * sign >= floor) return v;
    held = true;
    return sign * floor;
  };
  s.x = hold(s.x, start[0]);
  s.y = hold(s.y, start[1]);
  s.z = hold(s.z, start[2]);
  return held;
}
