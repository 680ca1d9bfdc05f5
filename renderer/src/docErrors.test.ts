import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../core/document/parse';
import { describeDocumentPath, projectErrorMessage } from './docErrors';

const SAMPLE = readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8');

/** The sample with one edit of its JSON, and the error parseDocument throws for it. */
function broken(edit: (raw: any) => void): { text: string; error: unknown } {
  const raw = JSON.parse(SAMPLE);
  edit(raw);
  const text = JSON.stringify(raw);
  try {
    parseDocument(text);
  } catch (error) {
    return { text, error };
  }
  throw new Error('the edited sample still parses');
}

describe('project file errors name the file, the place in words and the problem', () => {
  const raw = JSON.parse(SAMPLE);
  const clip = raw.clips[0];
  // The first rotation track of a joint, and the frame of its third key.
  const ti = clip.tracks.findIndex((t: any) => t.target.kind === 'joint' && t.path === 'rotation');
  const track = clip.tracks[ti];
  const character = raw.characters.find((c: any) => c.id === track.target.character);
  const jointName = character.skeleton.joints[track.target.joint].name;
  const stride = 4 * (track.interpolation === 'cubic' ? 3 : 1);
  const frameOfKey = (k: number) => +(track.times[k] * clip.frameRate).toFixed(3);

  it('a null (NaN in the editor that wrote it) key value: the clip, the bone, the channel and the key with its frame', () => {
    const { text, error } = broken((r) => void (r.clips[0].tracks[ti].values[2 * stride + 1] = null));
    const msg = projectErrorMessage('broken.impulse', text, error);
    expect(msg.startsWith(`broken.impulse: clips[0].tracks[${ti}].values[${2 * stride + 1}]:`), msg).toBe(true);
    expect(msg, 'the problem').toMatch(/expected a number, got null/);
    expect(msg, 'the place in words').toContain(`(clip "${clip.name}", ${character.name} · ${jointName} rotation, key 3 at frame ${frameOfKey(2)})`);
  });

  it('key times out of order: the key is named by its index in times', () => {
    const { text, error } = broken((r) => void (r.clips[0].tracks[ti].times[3] = -1));
    const msg = projectErrorMessage('broken.impulse', text, error);
    expect(msg).toMatch(/times\[3\]: not strictly increasing/);
    expect(msg).toContain(`${character.name} · ${jointName} rotation, key 4`);
  });

  it('a prop: named by its name', () => {
    const pi = raw.props.findIndex((p: any) => p.name === 'Ball');
    const { text, error } = broken((r) => void (r.props[pi].physics.restitution = 'high'));
    expect(projectErrorMessage('b.impulse', text, error)).toMatch(new RegExp(`^b\\.impulse: props\\[${pi}\\]\\.physics\\.restitution: .*\\(prop "Ball"\\)$`));
  });

  it('text that is not JSON: the parser says line and column, nothing is invented', () => {
    const text = SAMPLE.slice(0, 5000);
    let error: unknown;
    try {
      parseDocument(text);
    } catch (e) {
      error = e;
    }
    const msg = projectErrorMessage('cut.impulse', text, error);
    expect(msg).toMatch(/^cut\.impulse: not valid JSON: line \d+, column \d+/);
    expect(msg.endsWith(')'), msg).toBe(false);
    expect(describeDocumentPath(text, 'clips[0]')).toBe('');
  });
});
