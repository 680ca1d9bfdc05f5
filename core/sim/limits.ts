/**
 * Margins that let the ragdoll limit corrections (SimWorld.correctLimits)
 * skip acos and atan2 for joints well inside their cone and twist limits:
 * the decisions stay those of the exact angles, because the margins are far
 * beyond the functions' rounding (a few ulps).
 */
import { cos, tan } from '../math/libm';

/**
 * A cosine above which the cone angle acos(clamp(cosA)) is surely at or below
 * `limitRad`: cos(limit) + 1e-9; +∞ (never skip) for a negative limit or one
 * of π or more.
 */
export function coneSkipCos(limitRad: number): number {
  return limitRad >= 0 && limitRad < Math.PI ? cos(limitRad) + 1e-9 : Infinity;
}

/**
 * A ratio such that |s| ≤ c · ratio (c ≥ 0) makes the twist 2 atan2(s, c)
 * surely within ±`limitRad`: tan(limit / 2) · (1 − 1e-9); NaN (never skip)
 * where the margin could come near rounding (limits below 1e-6 or within
 * 1e-3 of π).
 */
export function twistSkipTan(limitRad: number): number {
  return limitRad >= 1e-6 && limitRad <= Math.PI - 1e-3 ? tan(0.5 * limitRad) * (1 - 1e-9) : NaN;
}
