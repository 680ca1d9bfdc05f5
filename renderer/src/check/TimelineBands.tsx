/**
 * Over the dope sheet: red bands on the frames where anything interpenetrates
 * (after ignore rules; darker where deeper) and the suggestion's impacts as
 * markers. Positioned with the sheet's frame-to-pixel mapping (its zoomed /
 * panned view, `left` px right of this layer's left edge).
 */
import { useMemo } from 'react';
import { useDocStore } from '../state/documentStore';
import { activeClip } from '../state/keys';
import { useSuggest } from '../suggest/suggestStore';
import { computeBands, visibleFindings } from './findings';
import { useCheck } from './checkStore';
import { frameToX, type SheetView } from '../panels/sheetView';

export function TimelineBands({ view, left }: { view: SheetView; left: number }) {
  const pxPerFrame = view.pxPerFrame;
  const findings = useCheck((s) => s.findings);
  const clipId = useCheck((s) => s.clipId);
  const rules = useDocStore((s) => s.history.doc.check.ignore);
  const activeId = useDocStore((s) => activeClip(s.history.doc)?.id);
  const impacts = useSuggest((s) => s.result?.impacts);
  const fps = useDocStore((s) => activeClip(s.history.doc)?.frameRate ?? 30);
  const bands = useMemo(() => (clipId === activeId ? computeBands(visibleFindings(findings, rules)) : []), [findings, rules, clipId, activeId]);
  const x = (f: number) => left + frameToX(view, f);
  return (
    <div className="cs-bands" aria-hidden>
      {bands.map((b) => (
        <div
          key={b.from}
          className="cs-band"
          data-testid="check-band"
          data-from={b.from}
          data-to={b.to}
          title={`Interpenetration, frames ${b.from}–${b.to}: ${b.count} finding${b.count === 1 ? '' : 's'}, max ${(b.maxDepth * 100).toFixed(1)} cm`}
          style={{ left: x(b.from - 0.5), width: Math.max(2, (b.to - b.from + 1) * pxPerFrame), opacity: 0.3 + 0.3 * Math.min(1, b.maxDepth / 0.03) }}
        />
      ))}
      {impacts?.map((im, i) => (
        <div key={i} className="cs-impact" data-testid="impact-marker" data-frame={im.frame} title={`Impact at frame ${(im.timeSec * fps).toFixed(2)}`} style={{ left: x(im.timeSec * fps) }} />
      ))}
    </div>
  );
}

/**
 * The impact markers' heads, drawn in the ruler (which stays on top of the
 * bands and lines when the sheet scrolls, so the bands never tint its numbers);
 * `xOf` is the ruler's frame-to-pixel mapping.
 */
export function ImpactHeads({ xOf }: { xOf: (frame: number) => number }) {
  const impacts = useSuggest((s) => s.result?.impacts);
  const fps = useDocStore((s) => activeClip(s.history.doc)?.frameRate ?? 30);
  if (!impacts?.length) return null;
  return (
    <>
      {impacts.map((im, i) => (
        <div key={i} className="cs-impact-head" data-testid="impact-head" data-frame={im.frame} style={{ left: xOf(im.timeSec * fps) }} />
      ))}
    </>
  );
}
