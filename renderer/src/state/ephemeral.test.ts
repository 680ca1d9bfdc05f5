import { describe, expect, it } from 'vitest';
import { useEphemeral } from './ephemeral';

describe('playhead when playback stops', () => {
  it('stops on the nearest whole frame whatever stops it (a key click sets playing: false alone)', () => {
    for (const [at, want] of [
      [46.37, 46],
      [46.5, 47],
      [12.9, 13],
    ] as const) {
      useEphemeral.setState({ playing: true, frame: at });
      useEphemeral.setState({ playing: false });
      expect(useEphemeral.getState().frame, `stopped at ${at}`).toBe(want);
    }
  });

  it('leaves fractional frames alone while playing, and a frame set together with the stop', () => {
    useEphemeral.setState({ playing: true, frame: 3 });
    useEphemeral.setState({ frame: 3.25 });
    expect(useEphemeral.getState().frame).toBe(3.25);
    useEphemeral.setState({ playing: false, frame: 40 });
    expect(useEphemeral.getState().frame).toBe(40);
    // Not playing: nothing snaps (scrubbing and typing set whole frames themselves).
    useEphemeral.setState({ frame: 7.5 });
    expect(useEphemeral.getState().frame).toBe(7.5);
  });
});
