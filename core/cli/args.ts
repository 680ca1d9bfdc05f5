/**
 * Command-line argument parsing shared by the `impulse` commands: one error
 * type for wrong use (the command prints it with its usage and exits 2) and
 * one walk over the arguments with the same rules everywhere.
 */

/** Wrong use of a command: what was wrong, in the words of the command line. */
export class UsageError extends Error {}

/**
 * Walks `argv` in order and calls `visit(flag, take, arg)` for every argument.
 * `flag` is the option name (`--out` for both `--out x` and `--out=x`; the
 * whole argument otherwise), `take()` returns the option's value: the text
 * after `=`, or else the next argument, which must exist and must not start
 * with `--`. The walk stops and returns 'help' as soon as `visit` does.
 */
export function walkArgs(
  argv: readonly string[],
  visit: (flag: string, take: () => string, arg: string) => 'help' | void,
): 'help' | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const take = (): string => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      i++;
      return v;
    };
    if (visit(flag, take, arg) === 'help') return 'help';
  }
  return undefined;
}

/**
 * The one input file of a command: `arg` when it is not an option and no
 * input was given before (`current`), else a UsageError saying which.
 */
export function inputArg(current: string | undefined, arg: string): string {
  if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
  if (current !== undefined) throw new UsageError(`one input file expected, got "${current}" and "${arg}"`);
  return arg;
}
