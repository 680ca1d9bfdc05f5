/** What a CLI command may do to the outside world; main.ts gives the real one, tests a fake. */
export interface CliIo {
  stdout(s: string): void;
  stderr(s: string): void;
  readFile(path: string): Promise<Uint8Array>;
  /** Writes atomically (temporary file, then rename). */
  writeFile(path: string, data: Uint8Array | string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** True when both paths name the same file on disk (symlinks and hard links included); both must exist. */
  sameFile?(a: string, b: string): Promise<boolean>;
  /** True when stderr is a terminal: commands may draw progress there. */
  isTTY: boolean;
}

export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;
