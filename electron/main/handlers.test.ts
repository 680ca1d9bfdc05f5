import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../ipc/contract';
import { PayloadError } from '../ipc/validators';
import { AccessError, Handlers, RECENT_LIMIT } from './handlers';
import { SAMPLE_TEXT, scriptedHost, type ScriptedHost } from './testHost';

let host: ScriptedHost;
let h: Handlers;
const W = 1;

beforeEach(() => {
  host = scriptedHost();
  h = new Handlers(host, { sessionId: 'first' });
  h.openWindow(W, { kind: 'sample' });
});
afterEach(() => rmSync(host.root, { recursive: true, force: true }));

function project(name: string, text = `{"name":"${name}"}`): string {
  const p = join(host.documentsDir, `${name}.impulse`);
  writeFileSync(p, text);
  return p;
}

describe('projects', () => {
  it('a window starts with the bundled sample, without a path (saving it asks where)', async () => {
    const p = await h.invoke(W, 'getInitialProject', undefined);
    expect(p).toEqual({ path: null, text: SAMPLE_TEXT, name: 'bat-and-ball' });
  });

  it('a window opened on a file starts with that file; an empty window with nothing', async () => {
    const file = project('walk');
    h.openWindow(2, { kind: 'file', path: file });
    h.openWindow(3, { kind: 'empty' });
    expect(await h.invoke(2, 'getInitialProject', undefined)).toEqual({ path: file, text: '{"name":"walk"}', name: 'walk' });
    expect(await h.invoke(3, 'getInitialProject', undefined)).toBeNull();
    expect(await h.listRecent()).toEqual([file]);
  });

  it('open: the dialog choice is read and added to the recent list; cancel returns null', async () => {
    const file = project('swing');
    host.openAnswers.push(file, null);
    expect(await h.invoke(W, 'openProject', undefined)).toEqual({ path: file, text: '{"name":"swing"}', name: 'swing' });
    expect(await h.invoke(W, 'openProject', undefined)).toBeNull();
    expect(await h.invoke(W, 'listRecent', undefined)).toEqual([file]);
    expect(host.dialogs[0]!.options.filters[0]!.extensions).toEqual(['impulse']);
  });

  it('open of a missing file says which file and why', async () => {
    host.openAnswers.push(join(host.documentsDir, 'gone.impulse'));
    await expect(h.invoke(W, 'openProject', undefined)).rejects.toThrow(/Cannot open .*gone\.impulse: file not found/);
  });

  it('save without a path asks for one, adds the extension, writes the text, and later saves go there without asking', async () => {
    host.saveAnswers.push(join(host.documentsDir, 'mine'));
    const first = await h.invoke(W, 'saveProject', { text: 'one', path: null, saveAs: false });
    const target = join(host.documentsDir, 'mine.impulse');
    expect(first).toEqual({ path: target, name: 'mine' });
    expect(readFileSync(target, 'utf8')).toBe('one');
    expect(await h.invoke(W, 'saveProject', { text: 'two', path: target, saveAs: false })).toEqual({ path: target, name: 'mine' });
    expect(readFileSync(target, 'utf8')).toBe('two');
    expect(host.dialogs.length, 'only the first save asked').toBe(1);
    expect(await h.listRecent()).toEqual([target]);
  });

  it('save as always asks; cancelling writes nothing', async () => {
    const file = project('a');
    host.openAnswers.push(file);
    await h.invoke(W, 'openProject', undefined);
    host.saveAnswers.push(null);
    expect(await h.invoke(W, 'saveProject', { text: 'x', path: file, saveAs: true })).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('{"name":"a"}');
    expect(host.dialogs[1]!.options.defaultPath).toBe(file);
  });

  it('save as onto another existing project replaces its text whole (the OS dialog asked to overwrite), later saves go there, the old file is untouched', async () => {
    const a = project('a'), b = project('b');
    host.openAnswers.push(a);
    await h.invoke(W, 'openProject', undefined);
    host.saveAnswers.push(b);
    expect(await h.invoke(W, 'saveProject', { text: '{"name":"a as b"}', path: a, saveAs: true })).toEqual({ path: b, name: 'b' });
    expect(readFileSync(b, 'utf8')).toBe('{"name":"a as b"}');
    expect(readFileSync(a, 'utf8'), 'the project saved from is kept as it was').toBe('{"name":"a"}');
    expect(readdirSync(host.documentsDir).filter((f) => !f.endsWith('.impulse')), 'no temporary file left beside it').toEqual([]);
    expect(await h.invoke(W, 'saveProject', { text: 'next', path: b, saveAs: false })).toEqual({ path: b, name: 'b' });
    expect(readFileSync(b, 'utf8')).toBe('next');
    expect((await h.listRecent()).slice(0, 2)).toEqual([b, a]);
  });

  it('refuses to save to a path the user never chose', async () => {
    const other = join(host.root, 'elsewhere.impulse');
    await expect(h.invoke(W, 'saveProject', { text: 'x', path: other, saveAs: false })).rejects.toThrow(AccessError);
    expect(existsSync(other)).toBe(false);
    await expect(h.invoke(W, 'saveProject', { text: 'x', path: host.samplePath, saveAs: false }), 'not even the bundled sample').rejects.toThrow(/was not chosen in a dialog/);
    await h.invoke(W, 'autosave', { text: 'x' });
    const recentFile = h.recentFile;
    await expect(h.invoke(W, 'saveProject', { text: 'x', path: recentFile, saveAs: false }), 'nor the app\'s own files').rejects.toThrow(/was not chosen in a dialog/);
    expect(readFileSync(host.samplePath, 'utf8')).toBe(SAMPLE_TEXT);
  });

  it('open recent only opens listed files; a vanished file leaves the list', async () => {
    const a = project('a');
    host.openAnswers.push(a);
    await h.invoke(W, 'openProject', undefined);
    await expect(h.invoke(W, 'openRecent', { path: project('b') })).rejects.toThrow(/not in the recent list/);
    expect(await h.invoke(W, 'openRecent', { path: a })).toMatchObject({ path: a, name: 'a' });
    rmSync(a);
    await expect(h.invoke(W, 'openRecent', { path: a })).rejects.toThrow(/file not found/);
    expect(await h.listRecent()).toEqual([]);
  });

  it('the recent list is most recent first, without duplicates, capped, and survives a restart', async () => {
    const files = Array.from({ length: RECENT_LIMIT + 3 }, (_, i) => project(`p${i}`));
    for (const f of files) {
      host.openAnswers.push(f);
      await h.invoke(W, 'openProject', undefined);
    }
    host.openAnswers.push(files[5]!);
    await h.invoke(W, 'openProject', undefined);
    const expected = [files[5]!, ...files.slice().reverse().filter((f) => f !== files[5]!)].slice(0, RECENT_LIMIT);
    expect(await h.listRecent()).toEqual(expected);
    expect(host.recent.at(-1)).toEqual(expected);
    const restarted = new Handlers(host);
    restarted.openWindow(W, { kind: 'empty' });
    expect(await restarted.listRecent()).toEqual(expected);
    // A file from an earlier session's dialog can be saved again.
    await restarted.invoke(W, 'saveProject', { text: 'again', path: files[5]!, saveAs: false });
    expect(readFileSync(files[5]!, 'utf8')).toBe('again');
  });

  it('a corrupt recent list is kept aside and does not block opening files', async () => {
    mkdirSync(host.userDataDir, { recursive: true });
    writeFileSync(h.recentFile, '{not json');
    expect(await h.listRecent()).toEqual([]);
    expect(readFileSync(`${h.recentFile}.corrupt`, 'utf8')).toBe('{not json');
    const f = project('ok');
    host.openAnswers.push(f);
    await h.invoke(W, 'openProject', undefined);
    expect(await h.listRecent()).toEqual([f]);
  });
});

describe('autosave and recovery', () => {
  it('autosave writes <userData>/recovery/<project>.autosave.json with the text and time', async () => {
    const f = project('walk');
    host.openAnswers.push(f);
    await h.invoke(W, 'openProject', undefined);
    await h.invoke(W, 'autosave', { text: 'edited walk' });
    const names = readdirSync(h.recoveryDir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^walk-[0-9a-f]{8}\.autosave\.json$/);
    const c = JSON.parse(readFileSync(join(h.recoveryDir, names[0]!), 'utf8'));
    expect(c).toMatchObject({ path: f, name: 'walk', savedAt: host.clock, text: 'edited walk' });
  });

  it('after a crash, the next start offers the autosave once, with its path; discarding deletes it', async () => {
    const f = project('walk');
    host.openAnswers.push(f);
    await h.invoke(W, 'openProject', undefined);
    await h.invoke(W, 'autosave', { text: 'unsaved work' });
    // crash: no confirmClose, no save. Next start:
    const next = new Handlers(host, { sessionId: 'second' });
    next.openWindow(1, { kind: 'sample' });
    next.openWindow(2, { kind: 'sample' });
    expect(await next.invoke(1, 'checkRecovery', undefined)).toEqual({ text: 'unsaved work', savedAt: host.clock, path: f, name: 'walk' });
    expect(await next.invoke(2, 'checkRecovery', undefined), 'not offered to a second window').toBeNull();
    // The recovered project can be saved to its old path without a dialog.
    await next.invoke(1, 'setDocumentState', { dirty: true, title: 'walk.impulse', path: f });
    await next.invoke(1, 'discardRecovery', undefined);
    expect(readdirSync(next.recoveryDir)).toEqual([]);
  });

  it('the recovery file survives state updates while the question is open; taking it over keeps its file', async () => {
    const f = project('walk');
    host.openAnswers.push(f);
    await h.invoke(W, 'openProject', undefined);
    await h.invoke(W, 'autosave', { text: 'unsaved walk' });
    const [file] = readdirSync(h.recoveryDir);
    const next = new Handlers(host, { sessionId: 'second' });
    next.openWindow(1, { kind: 'sample' });
    expect(await next.invoke(1, 'checkRecovery', undefined)).toMatchObject({ path: f });
    // The page publishes its (still empty) state while the user reads the prompt.
    await next.invoke(1, 'setDocumentState', { dirty: false, title: 'Untitled', path: null });
    expect(readdirSync(next.recoveryDir), 'still there').toEqual([file]);
    // The user accepts: the recovered document is dirty and has the old path.
    await next.invoke(1, 'setDocumentState', { dirty: true, title: 'walk.impulse', path: f });
    await next.invoke(1, 'autosave', { text: 'more walk' });
    expect(readdirSync(next.recoveryDir), 'autosaves go to the same file').toEqual([file]);
    await next.invoke(1, 'saveProject', { text: 'more walk', path: f, saveAs: false });
    expect(readFileSync(f, 'utf8')).toBe('more walk');
    expect(readdirSync(next.recoveryDir)).toEqual([]);
  });

  it('accepting a recovery keeps autosaving to the same file; saving removes it', async () => {
    await h.invoke(W, 'autosave', { text: 'untitled work' });
    const next = new Handlers(host, { sessionId: 'second' });
    next.openWindow(1, { kind: 'sample' });
    const info = await next.invoke(1, 'checkRecovery', undefined);
    expect(info).toMatchObject({ text: 'untitled work', path: null });
    await next.invoke(1, 'autosave', { text: 'more work' });
    const names = readdirSync(next.recoveryDir);
    expect(names, 'the crashed session\'s file was replaced by this window\'s').toEqual([`untitled-second-1.autosave.json`]);
    host.saveAnswers.push(join(host.documentsDir, 'kept.impulse'));
    await next.invoke(1, 'saveProject', { text: 'more work', path: null, saveAs: false });
    expect(readdirSync(next.recoveryDir)).toEqual([]);
  });

  it('a live window\'s autosave is not offered to another window of the same session', async () => {
    await h.invoke(W, 'autosave', { text: 'live' });
    h.openWindow(2, { kind: 'empty' });
    expect(await h.invoke(2, 'checkRecovery', undefined)).toBeNull();
  });

  it('the newest of several recovery files is offered first', async () => {
    h.openWindow(2, { kind: 'empty' });
    await h.invoke(W, 'autosave', { text: 'older' });
    host.clock += 5000;
    await h.invoke(2, 'autosave', { text: 'newer' });
    const next = new Handlers(host, { sessionId: 'second' });
    next.openWindow(1, { kind: 'empty' });
    next.openWindow(2, { kind: 'empty' });
    expect(await next.invoke(1, 'checkRecovery', undefined)).toMatchObject({ text: 'newer' });
    expect(await next.invoke(2, 'checkRecovery', undefined)).toMatchObject({ text: 'older' });
  });

  it('a clean close removes the window\'s recovery file and closes; declining keeps the window', async () => {
    await h.invoke(W, 'autosave', { text: 'x' });
    await h.invoke(W, 'confirmClose', { proceed: false });
    expect(host.cancelled).toEqual([W]);
    expect(readdirSync(h.recoveryDir)).toHaveLength(1);
    await h.invoke(W, 'confirmClose', { proceed: true });
    expect(host.closed).toEqual([W]);
    expect(readdirSync(h.recoveryDir)).toEqual([]);
  });

  it('an unreadable recovery file is moved aside, not offered', async () => {
    mkdirSync(h.recoveryDir, { recursive: true });
    writeFileSync(join(h.recoveryDir, 'bad.autosave.json'), '{"format":"impulse-recovery", trunc');
    expect(await h.invoke(W, 'checkRecovery', undefined)).toBeNull();
    expect(existsSync(join(h.recoveryDir, 'corrupt', 'bad.autosave.json'))).toBe(true);
  });

  it('opening another project drops the old recovery file', async () => {
    await h.invoke(W, 'autosave', { text: 'x' });
    const f = project('other');
    host.openAnswers.push(f);
    await h.invoke(W, 'openProject', undefined);
    expect(readdirSync(h.recoveryDir)).toEqual([]);
  });
});

describe('glTF import and export', () => {
  it('import returns the chosen file\'s bytes and name', async () => {
    const f = join(host.documentsDir, 'mannequin.glb');
    const bytes = new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 255]);
    writeFileSync(f, bytes);
    host.openAnswers.push(f);
    const r = (await h.invoke(W, 'importGltf', undefined)) as { fileName: string; bytes: Uint8Array };
    expect(r.fileName).toBe('mannequin.glb');
    expect(Array.from(r.bytes)).toEqual(Array.from(bytes));
    expect(host.dialogs[0]!.options.filters[0]!.extensions).toEqual(['glb', 'gltf']);
    host.openAnswers.push(null);
    expect(await h.invoke(W, 'importGltf', undefined)).toBeNull();
  });

  it('export writes the bytes where the user chose, with a .glb extension and a safe suggested name', async () => {
    host.saveAnswers.push(join(host.documentsDir, 'baked'));
    const bytes = new Uint8Array(1000).map((_, i) => i % 251);
    const r = await h.invoke(W, 'exportGlb', { bytes, suggestedName: '../../etc/bat and ball.glb' });
    expect(r).toEqual({ path: join(host.documentsDir, 'baked.glb') });
    expect(Array.from(readFileSync(join(host.documentsDir, 'baked.glb')))).toEqual(Array.from(bytes));
    expect(host.dialogs[0]!.options.defaultPath).toBe(join(host.documentsDir, 'bat_and_ball.glb'));
  });
});

describe('payload validation (every channel)', () => {
  it('refuses unknown channels', async () => {
    for (const bad of ['readFile', 'openProject ', '__proto__', 'constructor', 42, null]) {
      await expect(h.invoke(W, bad, undefined), String(bad)).rejects.toThrow(PayloadError);
    }
  });

  it('rejects bad payloads, naming the channel and the field', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['openProject', { path: '/etc/passwd' }, /openProject: payload: this channel takes no payload/],
      ['openRecent', { path: 7 }, /openRecent: path:/],
      ['openRecent', { path: '' }, /openRecent: path:/],
      ['openRecent', { path: '/a\0b' }, /NUL/],
      ['saveProject', { text: 'x', path: null }, /saveProject: saveAs:/],
      ['saveProject', { text: 1, path: null, saveAs: false }, /saveProject: text:/],
      ['saveProject', { text: 'x', path: null, saveAs: false, extra: 1 }, /saveProject: payload:/],
      ['autosave', 'text', /autosave: payload:/],
      ['exportGlb', { bytes: [1, 2, 3], suggestedName: 'a.glb' }, /exportGlb: bytes: expected a Uint8Array/],
      ['exportGlb', { bytes: new Uint8Array(1), suggestedName: '' }, /exportGlb: suggestedName:/],
      ['setDocumentState', { dirty: 'yes', title: 't', path: null }, /setDocumentState: dirty:/],
      ['confirmClose', {}, /confirmClose: proceed:/],
    ];
    for (const [channel, payload, message] of cases) {
      await expect(h.invoke(W, channel, payload), channel).rejects.toThrow(message);
    }
    expect(host.dialogs, 'no dialog opened for a rejected payload').toEqual([]);
  });

  it('every channel of the contract validates its payload', async () => {
    for (const c of CHANNELS) {
      await expect(h.invoke(W, c, Symbol('bad')), c).rejects.toThrow(new RegExp(`^${c}: `));
    }
  });

  it('setDocumentState forwards title and dirty flag, and refuses paths not chosen by the user', async () => {
    await h.invoke(W, 'setDocumentState', { dirty: true, title: 'Untitled', path: null });
    expect(host.states).toEqual([{ windowId: W, state: { dirty: true, title: 'Untitled', path: null } }]);
    expect(h.isDirty(W)).toBe(true);
    await expect(h.invoke(W, 'setDocumentState', { dirty: true, title: 't', path: '/etc/passwd' })).rejects.toThrow(AccessError);
    await expect(h.invoke(W, 'setDocumentState', { dirty: true, title: 't', path: 'relative.impulse' })).rejects.toThrow(AccessError);
  });

  it('window operations from an unknown window are refused (the recent list needs no window)', async () => {
    await expect(h.invoke(99, 'listRecent', undefined)).resolves.toEqual([]);
    await expect(h.invoke(99, 'openProject', undefined)).rejects.toThrow(/no window 99/);
  });
});

describe('window lifecycle', () => {
  it('a crashed renderer that reloads is offered its own last autosave', async () => {
    await h.invoke(W, 'autosave', { text: 'before the renderer crashed' });
    h.rendererRestarted(W);
    expect(await h.invoke(W, 'checkRecovery', undefined)).toMatchObject({ text: 'before the renderer crashed' });
  });

  it('closing a clean window removes its recovery file', async () => {
    await h.invoke(W, 'autosave', { text: 'x' });
    await h.closedCleanly(W);
    expect(readdirSync(h.recoveryDir)).toEqual([]);
    expect(h.windowIds()).toEqual([]);
  });
});
