/** Progress bar of the foreground job, with Cancel (Escape cancels too). */
import { useEffect } from 'react';
import { useJobs, cancelForeground } from './engine';

export function JobProgress() {
  const job = useJobs((s) => s.active);
  useEffect(() => {
    if (!job) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && cancelForeground()) e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [job?.id]);
  if (!job) return null;
  const fraction = job.total > 0 ? Math.min(1, job.done / job.total) : 0;
  return (
    <div className="job-progress" data-testid="job-progress" data-kind={job.kind} role="progressbar" aria-valuenow={Math.round(fraction * 100)} aria-valuemin={0} aria-valuemax={100}>
      <div className="job-title">{job.title}</div>
      <div className="job-bar">
        <div className="job-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <div className="job-label">
        {job.label} {job.total > 1 ? `(${job.done}/${job.total})` : ''}
      </div>
      <button data-testid="job-cancel" onClick={() => job.cancel()} title="Cancel (Escape)">
        Cancel
      </button>
    </div>
  );
}
