import { describe, expect, it } from 'vitest';
import { UsageError, inputArg, walkArgs } from './args';

function collect(argv: string[]): { seen: [string, string | null][]; result: 'help' | undefined } {
  const seen: [string, string | null][] = [];
  const result = walkArgs(argv, (flag, take) => {
    if (flag === '--help') return 'help';
    seen.push([flag, flag.startsWith('--') && flag !== '--flag' ? take() : null]);
  });
  return { seen, result };
}

describe('walkArgs', () => {
  it('reads --name value and --name=value alike, and leaves flags and positionals alone', () => {
    const { seen, result } = collect(['in.impulse', '--out', 'a.glb', '--clip=run=fast', '--flag', '-x']);
    expect(result, 'no --help given').toBeUndefined();
    expect(seen).toEqual([
      ['in.impulse', null],
      ['--out', 'a.glb'],
      ['--clip', 'run=fast'],
      ['--flag', null],
      ['-x', null],
    ]);
  });

  it('refuses a missing value and a value that is another option', () => {
    expect(() => collect(['--out'])).toThrow(new UsageError('--out needs a value'));
    expect(() => collect(['--out', '--flag'])).toThrow(new UsageError('--out needs a value'));
    expect(() => collect(['--out', '--flag'])).toThrow(UsageError);
  });

  it('stops at help without visiting the rest', () => {
    const { seen, result } = collect(['--help', '--out']);
    expect(result).toBe('help');
    expect(seen, 'nothing after --help is visited').toEqual([]);
  });
});

describe('inputArg', () => {
  it('takes one input file and names both when there are two, or the unknown option', () => {
    expect(inputArg(undefined, 'a.impulse')).toBe('a.impulse');
    expect(() => inputArg('a.impulse', 'b.impulse')).toThrow('one input file expected, got "a.impulse" and "b.impulse"');
    expect(() => inputArg(undefined, '--nope=1')).toThrow('unknown option --nope=1');
  });
});
