import { describe, expect, it } from 'vitest';
import { typedArrayToBase64 } from './base64';
import { DocumentError } from './errors';
import { sampleDocument } from './fixtures';
import { parseDocument } from './parse';
import { documentToJson, serializeDocument } from './serialize';
import { documentProblems, validateDocument } from './validate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Raw = any;

function rawSample(): Raw {
  return documentToJson(sampleDocument());
}

function f32Block(values: number[]) {
  return { dtype: 'f32', b64: typedArrayToBase64(new Float32Array(values)) };
}

function parseError(raw: Raw): DocumentError {
  try {
    parseDocument(JSON.stringify(raw));
  } catch (e) {
    expect(e, 'parseDocument throws DocumentError').toBeInstanceOf(DocumentError);
    return e as DocumentError;
  }
  throw new Error('expected parseDocument to reject the document');
}

/** [what is broken, how to break the raw sample, expected message prefix (path and start of detail)] */
const BROKEN: [string, (d: Raw) => void, string][] = [
  ['joint parent out of range', (d) => (d.characters[0].skeleton.joints[2].parent = 70), 'characters[0].skeleton.joints[2].parent: index 70 out of range (skeleton has 4 joints)'],
  ['joint parent below -1', (d) => (d.characters[0].skeleton.joints[1].parent = -2), 'characters[0].skeleton.joints[1].parent: index -2 out of range'],
  ['joint parent after the joint', (d) => (d.characters[0].skeleton.joints[1].parent = 2), 'characters[0].skeleton.joints[1].parent: parent 2 does not come before joint 1'],
  ['joint parent is itself', (d) => (d.characters[0].skeleton.joints[1].parent = 1), 'characters[0].skeleton.joints[1].parent: parent 1 does not come before joint 1'],
  ['joint parent not an integer', (d) => (d.characters[0].skeleton.joints[1].parent = 0.5), 'characters[0].skeleton.joints[1].parent: expected an integer'],
  ['skeleton without joints', (d) => (d.characters[0].skeleton.joints = []), 'characters[0].skeleton.joints: a character needs at least one joint'],
  ['positions not xyz', (d) => (d.characters[0].meshes[0].positions = [0, 0, 0, 1]), 'characters[0].meshes[0].positions: length 4 is not a multiple of 3'],
  ['index past the last vertex', (d) => (d.characters[0].meshes[0].indices = [0, 1, 2, 0, 2, 8]), 'characters[0].meshes[0].indices[5]: vertex 8 out of range (mesh has 8 vertices)'],
  ['indices not triangles', (d) => (d.props[0].mesh.indices = [0, 1, 2, 3]), 'props[0].mesh.indices: length 4 is not a multiple of 3'],
  ['index not an integer (plain array)', (d) => (d.props[0].mesh.indices = [0, 1, 2.5]), 'props[0].mesh.indices[2]: expected an integer in [0, 4294967295] (u32), got 2.5'],
  ['joints not 4 per vertex', (d) => (d.characters[0].meshes[0].joints = new Array(31).fill(0)), 'characters[0].meshes[0].joints: length 31, expected 32 (4 per vertex, 8 vertices)'],
  ['weights not 4 per vertex', (d) => (d.characters[0].meshes[0].weights = new Array(4).fill(0.25)), 'characters[0].meshes[0].weights: length 4, expected 32'],
  ['joint slot beyond skinJoints', (d) => { const j = new Array(32).fill(0); j[9] = 4; d.characters[0].meshes[0].joints = j; }, 'characters[0].meshes[0].joints[9]: skin joint slot 4 out of range (mesh has 4 skin joints)'],
  ['skin joint beyond skeleton', (d) => (d.characters[0].meshes[0].skinJoints = [0, 9, 2, 3]), 'characters[0].meshes[0].skinJoints[1]: joint 9 out of range (skeleton has 4 joints)'],
  ['inverse bind matrices not 16 per skin joint', (d) => (d.characters[0].meshes[0].inverseBindMatrices = new Array(48).fill(0)), 'characters[0].meshes[0].inverseBindMatrices: length 48, expected 64'],
  ['negative weight', (d) => { const w = new Array(32).fill(0.25); w[6] = -0.25; w[7] = 0.75; d.characters[0].meshes[0].weights = w; }, 'characters[0].meshes[0].weights[6]: weight must be finite and >= 0 (got -0.25)'],
  ['NaN weight in a base64 block', (d) => { const w = new Array(32).fill(0.25); w[13] = NaN; d.characters[0].meshes[0].weights = f32Block(w); }, 'characters[0].meshes[0].weights[13]: weight must be finite and >= 0 (got NaN)'],
  ['weights not summing to 1', (d) => (d.characters[0].meshes[0].weights = new Array(32).fill(0.2)), 'characters[0].meshes[0].weights[0]: weights of vertex 0 sum to'],
  ['NaN position in a base64 block', (d) => { const p = new Array(24).fill(0.5); p[4] = NaN; d.characters[0].meshes[0].positions = f32Block(p); }, 'characters[0].meshes[0].positions[4]: expected a finite number, got NaN'],
  ['Infinity position in a base64 block', (d) => { const p = new Array(24).fill(0.5); p[7] = Infinity; d.props[0].mesh.positions = f32Block(p); }, 'props[0].mesh.positions[7]: expected a finite number, got Infinity'],
  ['normals of the wrong length', (d) => (d.props[0].mesh.normals = [0, 1, 0]), 'props[0].mesh.normals: length 3 does not match positions (24, 8 vertices)'],
  ['material index out of range', (d) => (d.characters[0].meshes[0].material = 3), 'characters[0].meshes[0].material: index 3 out of range (character has 1 materials)'],
  ['bad base64', (d) => (d.characters[0].meshes[0].positions = { dtype: 'f32', b64: 'AAA*' }), 'characters[0].meshes[0].positions.b64: invalid base64 character "*" at offset 3'],
  ['float data stored as integers', (d) => (d.characters[0].meshes[0].positions = { dtype: 'u32', b64: 'AAAAAA==' }), 'characters[0].meshes[0].positions.dtype: expected dtype f32, got u32'],
  ['unknown dtype', (d) => (d.props[0].mesh.indices = { dtype: 'f64', b64: '' }), 'props[0].mesh.indices.dtype: expected one of f32, u32, u16, i32, got "f64"'],
  ['u32 indices too big for u16 joints', (d) => (d.characters[0].meshes[0].joints = { dtype: 'u32', b64: typedArrayToBase64(new Uint32Array(32).fill(70000)) }), 'characters[0].meshes[0].joints.b64: element 0 = 70000 does not fit u16'],
  ['zero quaternion in a transform', (d) => (d.props[1].transform.rotation = [0, 0, 0, 0]), 'props[1].transform.rotation: quaternion [0, 0, 0, 0] has zero length'],
  ['zero quaternion in a joint rest pose', (d) => (d.characters[0].skeleton.joints[3].rest.rotation = [0, 0, 0, 0]), 'characters[0].skeleton.joints[3].rest.rotation: quaternion'],
  ['times not strictly increasing', (d) => (d.clips[0].tracks[2].times = [0, 0.5, 0.5]), 'clips[0].tracks[2].times[2]: not strictly increasing (0.5 after 0.5)'],
  ['times decreasing', (d) => (d.clips[0].tracks[0].times = [0, 1.25, 1]), 'clips[0].tracks[0].times[2]: not strictly increasing (1 after 1.25)'],
  ['track without keys', (d) => { d.clips[0].tracks[2].times = []; d.clips[0].tracks[2].values = []; }, 'clips[0].tracks[2].times: a track needs at least one key'],
  ['rotation values not 4 per key', (d) => d.clips[0].tracks[0].values.pop(), 'clips[0].tracks[0].values: length 11, expected 12 (3 keys × 4 for rotation)'],
  ['cubic values not 3 groups per key', (d) => d.clips[0].tracks[1].values.push(0, 0, 0), 'clips[0].tracks[1].values: length 21, expected 18 (2 keys × 3 for translation × 3 for cubic'],
  ['zero quaternion key', (d) => (d.clips[0].tracks[0].values = [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0]), 'clips[0].tracks[0].values[4]: key 1 quaternion [0, 0, 0, 0] has zero length'],
  ['zero quaternion value of a cubic key (tangents may be zero)', (d) => d.clips[0].tracks[3].values.splice(16, 4, 0, 0, 0, 0), 'clips[0].tracks[3].values[16]: key 1 quaternion'],
  ['track on a missing character', (d) => (d.clips[0].tracks[1].target.character = 'villain'), 'clips[0].tracks[1].target.character: no character with id "villain"'],
  ['track on a missing joint', (d) => (d.clips[0].tracks[0].target.joint = 4), 'clips[0].tracks[0].target.joint: index 4 out of range (character "hero" has 4 joints)'],
  ['track on a missing prop', (d) => (d.clips[0].tracks[2].target.prop = 'bat'), 'clips[0].tracks[2].target.prop: no prop with id "bat"'],
  ['track on a clip id instead of a prop', (d) => (d.clips[0].tracks[2].target.prop = 'swing'), 'clips[0].tracks[2].target.prop: no prop with id "swing"'],
  ['two tracks on one channel', (d) => d.clips[0].tracks.push(structuredClone(d.clips[0].tracks[2])), 'clips[0].tracks[4]: animates the same channel as tracks[2] (prop "crate" translation)'],
  ['unknown target kind', (d) => (d.clips[0].tracks[2].target.kind = 'camera'), 'clips[0].tracks[2].target.kind: expected "joint" or "prop", got "camera"'],
  ['unknown interpolation', (d) => (d.clips[0].tracks[0].interpolation = 'smooth'), 'clips[0].tracks[0].interpolation: expected "step" or "linear" or "cubic", got "smooth"'],
  ['zero frame rate', (d) => (d.clips[0].frameRate = 0), 'clips[0].frameRate: must be a finite number > 0 (got 0)'],
  ['negative frame rate', (d) => (d.clips[0].frameRate = -24), 'clips[0].frameRate: must be a finite number > 0 (got -24)'],
  ['frame range backwards', (d) => { d.clips[0].startFrame = 10; d.clips[0].endFrame = 5; }, 'clips[0].endFrame: 5 is before startFrame 10'],
  ['fractional frame', (d) => (d.clips[0].endFrame = 2.5), 'clips[0].endFrame: expected an integer'],
  ['duplicate ids', (d) => (d.props[1].id = 'crate'), 'props[1].id: duplicate id "crate" (also props[0].id)'],
  ['prop id equal to a character id', (d) => (d.props[0].id = 'hero'), 'props[0].id: duplicate id "hero" (also characters[0].id)'],
  ['empty id', (d) => (d.clips[0].id = ''), 'clips[0].id: id must not be empty'],
  ['missing active clip', (d) => (d.activeClip = 'walk'), 'activeClip: no clip with id "walk"'],
  ['both mass and density', (d) => (d.props[0].physics.densityKgPerM3 = 500), 'props[0].physics: both massKg and densityKgPerM3 are set'],
  ['neither mass nor density', (d) => delete d.props[1].physics.densityKgPerM3, 'props[1].physics: neither massKg nor densityKgPerM3 is set'],
  ['zero mass', (d) => (d.props[0].physics.massKg = 0), 'props[0].physics.massKg: must be a finite number > 0 (got 0)'],
  ['negative density', (d) => (d.props[1].physics.densityKgPerM3 = -1), 'props[1].physics.densityKgPerM3: must be a finite number > 0 (got -1)'],
  ['restitution above 1', (d) => (d.props[1].physics.restitution = 1.5), 'props[1].physics.restitution: must be in [0, 1] (got 1.5)'],
  ['negative restitution', (d) => (d.props[1].physics.restitution = -0.1), 'props[1].physics.restitution: must be in [0, 1] (got -0.1)'],
  ['negative friction', (d) => (d.props[0].physics.friction = -1), 'props[0].physics.friction: must be a finite number >= 0 (got -1)'],
  ['unknown control mode', (d) => (d.props[0].physics.mode = 'kinematic'), 'props[0].physics.mode: expected "keyframed" or "dynamic", got "kinematic"'],
  ['collision group not a 32-bit mask', (d) => (d.props[0].collision.groups = 2 ** 32), 'props[0].collision.groups: must be a 32-bit mask'],
  ['negative adjacent hops', (d) => (d.characters[0].collision.adjacentHops = -1), 'characters[0].collision.adjacentHops: must be an integer >= 0 (got -1)'],
  ['colour out of range', (d) => (d.props[0].material.baseColor = [1.2, 0, 0, 1]), 'props[0].material.baseColor[0]: must be in [0, 1] (got 1.2)'],
  ['ignore rule on a missing object', (d) => (d.check.ignore[0].b.object = 'table'), 'check.ignore[0].b.object: no character or prop with id "table"'],
  ['ignore rule on a joint of a prop', (d) => (d.check.ignore[0].b.joint = 0), 'check.ignore[0].b.joint: "crate" is a prop, which has no joints'],
  ['ignore rule on a missing joint', (d) => (d.check.ignore[0].a.joint = 12), 'check.ignore[0].a.joint: index 12 out of range (character "hero" has 4 joints)'],
  ['missing prop name', (d) => delete d.props[0].name, 'props[0].name: missing (expected a string)'],
  ['wrong type', (d) => (d.characters[0].name = 7), 'characters[0].name: expected a string, got 7'],
  ['transform tuple too short', (d) => (d.props[0].transform.scale = [1, 1]), 'props[0].transform.scale'],
  ['string where a number belongs', (d) => (d.gravity = [0, '-9.81', 0]), 'gravity[1]: expected a number, got "-9.81"'],
  ['typed array given as a string', (d) => (d.props[0].mesh.positions = 'AAAA'), 'props[0].mesh.positions: expected a { dtype, b64 } block or a number array, got "AAAA"'],
  ['not an object', (d) => (d.props[0] = 5), 'props[0]: expected an object, got 5'],
  ['object instead of an array', (d) => (d.props = {}), 'props: expected an array, got an object'],
  ['transform tuple too long', (d) => (d.props[0].transform.scale = [1, 1, 1, 1]), 'props[0].transform.scale: expected at most 3 elements, got 4'],
  ['incomplete track target', (d) => (d.clips[0].tracks[0].target = { kind: 'joint' }), 'clips[0].tracks[0].target.character: missing (expected a string)'],
  ['data block without data', (d) => (d.characters[0].meshes[0].positions = { dtype: 'f32' }), 'characters[0].meshes[0].positions.b64: expected a base64 string, got nothing'],
  ['version from the future', (d) => (d.version = 3), 'version: this file was written by a newer Impulse (document version 3'],
  ['version missing', (d) => delete d.version, 'version: expected an integer document version, got nothing'],
  ['version as a string', (d) => (d.version = '2'), 'version: expected an integer document version, got "2"'],
  ['version 0', (d) => (d.version = 0), 'version: document version 0 is older than any version this Impulse can read (oldest 1)'],
];

describe('parseDocument: broken documents are rejected with the object path', () => {
  it('accepts the unbroken sample (so every rejection below is caused by the breakage)', () => {
    expect(() => parseDocument(JSON.stringify(rawSample()))).not.toThrow();
  });

  for (const [what, breakIt, expected] of BROKEN) {
    it(`${what} -> ${expected}`, () => {
      const raw = rawSample();
      breakIt(raw);
      const err = parseError(raw);
      expect(err.message.startsWith(expected), `message "${err.message}" should start with "${expected}"`).toBe(true);
      const colon = expected.indexOf(': ');
      if (colon > 0) expect(err.path).toBe(expected.slice(0, colon));
      expect(err.message).toBe(err.path ? `${err.path}: ${err.detail}` : err.detail);
    });
  }

  it('reports JSON syntax errors with line and column', () => {
    const text = '{\n  "version": 2,\n  "name": "x",,\n}';
    expect(() => parseDocument(text)).toThrow(DocumentError);
    expect(() => parseDocument(text)).toThrow(/^not valid JSON: line 3, column 15: expected a double-quoted property name, found ","/);
    expect(() => parseDocument('{"a": [1, 2}')).toThrow(/line 1, column 12: expected ',' or '\]', found "}"/);
    expect(() => parseDocument('{"a": NaN}')).toThrow(/line 1, column 7: expected a value, found "N"/);
    expect(() => parseDocument('')).toThrow(/line 1, column 1: expected a value, found end of input/);
    expect(() => parseDocument('{"a": "x\ny"}')).toThrow(/line 1, column 9: control character in string/);
    expect(() => parseDocument('{} x')).toThrow(/line 1, column 4: unexpected "x" after the end of the document/);
  });

  it('rejects a JSON value that is not an object', () => {
    expect(() => parseDocument('[1, 2]')).toThrow(/^a document is a JSON object, got an array of 2/);
  });

  it('tells how many more problems zod found', () => {
    const raw = rawSample();
    raw.name = 1;
    raw.activeClip = 2;
    expect(() => parseDocument(JSON.stringify(raw))).toThrow(/^name: expected a string, got 1 \(and 1 more problem\)/);
  });

  it('accepts plain number arrays and any fitting integer dtype for integer fields', () => {
    const raw = rawSample();
    const doc = sampleDocument();
    raw.props[0].mesh.positions = Array.from(doc.props[0].mesh.positions);
    raw.props[0].mesh.indices = { dtype: 'u16', b64: typedArrayToBase64(new Uint16Array(doc.props[0].mesh.indices)) };
    raw.characters[0].meshes[0].skinJoints = { dtype: 'u32', b64: typedArrayToBase64(new Uint32Array([0, 1, 2, 3])) };
    const parsed = parseDocument(JSON.stringify(raw));
    expect(parsed.props[0].mesh.positions).toBeInstanceOf(Float32Array);
    expect(parsed.props[0].mesh.positions).toEqual(doc.props[0].mesh.positions);
    expect(parsed.props[0].mesh.indices).toBeInstanceOf(Uint32Array);
    expect(parsed.props[0].mesh.indices).toEqual(doc.props[0].mesh.indices);
    expect(parsed.characters[0].meshes[0].skinJoints).toBeInstanceOf(Int32Array);
    expect(Array.from(parsed.characters[0].meshes[0].skinJoints)).toEqual([0, 1, 2, 3]);
  });

  it('ignores a UTF-8 byte order mark', () => {
    expect(() => parseDocument('\ufeff' + JSON.stringify(rawSample()))).not.toThrow();
  });
});

describe('validateDocument (in-memory documents)', () => {
  it('accepts the sample', () => {
    expect(() => validateDocument(sampleDocument())).not.toThrow();
    expect(documentProblems(sampleDocument())).toEqual([]);
  });

  it('rejects NaN and Infinity anywhere, with the path', () => {
    const cases: [(d: ReturnType<typeof sampleDocument>) => void, string][] = [
      [(d) => (d.props[0].transform.translation[1] = NaN), 'props[0].transform.translation[1]: expected a finite number, got NaN'],
      [(d) => (d.characters[0].skeleton.joints[2].rest.scale[0] = Infinity), 'characters[0].skeleton.joints[2].rest.scale[0]: expected a finite number, got Infinity'],
      [(d) => (d.clips[0].tracks[1].values[4] = NaN), 'clips[0].tracks[1].values[4]: expected a finite number, got NaN'],
      [(d) => (d.clips[0].tracks[0].times[1] = NaN), 'clips[0].tracks[0].times[1]: expected a finite number, got NaN'],
      [(d) => (d.gravity[1] = -Infinity), 'gravity[1]: expected a finite number, got -Infinity'],
      [(d) => (d.groundY = NaN), 'groundY: expected a finite number, got NaN'],
      [(d) => (d.props[0].physics.massKg = NaN), 'props[0].physics.massKg: expected a finite number, got NaN'],
      [(d) => (d.characters[0].meshes[0].inverseBindMatrices[17] = NaN), 'characters[0].meshes[0].inverseBindMatrices[17]: expected a finite number, got NaN'],
      [(d) => (d.props[1].mesh.positions[5] = -Infinity), 'props[1].mesh.positions[5]: expected a finite number, got -Infinity'],
    ];
    for (const [breakIt, expected] of cases) {
      const doc = sampleDocument();
      breakIt(doc);
      expect(() => validateDocument(doc), expected).toThrow(expected);
      // The serializer refuses to write it too.
      expect(() => serializeDocument(doc)).toThrow(expected);
    }
  });

  it('rejects typed arrays of the wrong kind', () => {
    const doc = sampleDocument();
    (doc.props[0].mesh as { positions: unknown }).positions = new Float64Array(24);
    expect(() => validateDocument(doc)).toThrow('props[0].mesh.positions: expected a Float32Array, got a Float64Array of 24');
  });

  it('requires typed arrays in memory, though a file may hold plain arrays', () => {
    const doc = sampleDocument();
    (doc.characters[0].meshes[0] as { weights: unknown }).weights = Array.from(doc.characters[0].meshes[0].weights);
    expect(() => validateDocument(doc)).toThrow('characters[0].meshes[0].weights: expected a Float32Array, got an array of 32');
    expect(() => serializeDocument(doc)).toThrow('characters[0].meshes[0].weights: expected a Float32Array');
  });

  it('lists every problem in document order', () => {
    const doc = sampleDocument();
    doc.props[0].physics.friction = -1;
    doc.clips[0].frameRate = 0;
    doc.activeClip = 'nope';
    expect(documentProblems(doc).map((e) => e.path)).toEqual(['props[0].physics.friction', 'clips[0].frameRate', 'activeClip']);
    expect(documentProblems(doc, 2)).toHaveLength(2);
  });

  it('allows an empty activeClip only when there are no clips', () => {
    const doc = sampleDocument();
    doc.clips = [];
    doc.activeClip = '';
    doc.check.ignore = [];
    expect(documentProblems(doc)).toEqual([]);
    doc.activeClip = 'swing';
    expect(() => validateDocument(doc)).toThrow('activeClip: no clip with id "swing" (the document has no clips)');
  });
});
