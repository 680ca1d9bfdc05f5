/** Timings shared by Electron's main and the HTTP bridge. */
export const AUTOSAVE_INTERVAL_MS = 60_000;
/** How long a window's renderer has to answer a close request before main asks the user itself. */
export const CLOSE_ANSWER_TIMEOUT_MS = 15_000;
/** How long quitting waits for the windows' last autosave. */
export const QUIT_AUTOSAVE_WAIT_MS = 3_000;
