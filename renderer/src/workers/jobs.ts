/** The engine worker's jobs. */
import type { JobHandlers } from './host';
import { runExport } from './exportJob';
import { runSuggest } from './suggestJob';
import { runCheckClip, runCheckFrame } from './checkJob';

export const HANDLERS: JobHandlers = {
  export: runExport,
  suggest: runSuggest,
  checkClip: runCheckClip,
  checkFrame: runCheckFrame,
};
