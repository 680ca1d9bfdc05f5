import { useEffect, useState } from 'react';
import { Viewport } from './viewport/Viewport';
import { Outliner } from './panels/Outliner';
import { Properties } from './panels/Properties';
import { Timeline } from './panels/Timeline';
import { MenuBar, HelpPanel } from './panels/MenuBar';
import { RecoveryDialog, StatusBar } from './panels/Dialogs';
import { installShortcuts, runCommand } from './commands';
import { getShell } from './bridge/shell';
import { AUTOSAVE_INTERVAL_MS, autosaveNow, publishDocumentState, startup } from './project';
import { isMenuCommand } from '../../electron/ipc/contract';
import { setStatus, useEphemeral } from './state/ephemeral';
import { usePrefs, setPref, clampTimelineHeight } from './state/preferences';
import { gizmoInteraction } from './viewport/Gizmo';
import { CheckSuggestLayer } from './check/CheckSuggestLayer';
import { installPruning } from './state/prune';

function Toolbar() {
  const tool = useEphemeral((s) => s.tool);
  const projection = usePrefs((s) => s.projection);
  const space = usePrefs((s) => s.gizmoSpace);
  return (
    <div className="toolbar" data-testid="toolbar">
      {(['translate', 'rotate', 'scale'] as const).map((t, i) => (
        <button key={t} data-testid={`tool-${t}`} className={tool === t ? 'on' : ''} title={`${t} (${'WER'[i]})`} onClick={() => useEphemeral.setState({ tool: t })}>
          {t === 'translate' ? '✥ Move' : t === 'rotate' ? '⟳ Rotate' : '⤢ Scale'}
        </button>
      ))}
      <button data-testid="gizmo-space" title="Gizmo orientation" onClick={() => setPref('gizmoSpace', space === 'local' ? 'world' : 'local')}>
        {space === 'local' ? 'Local' : 'World'}
      </button>
      <span className="sep" />
      <button data-testid="projection" onClick={() => runCommand('togglePerspective')} title="Perspective / orthographic (O)">
        {projection === 'perspective' ? 'Persp' : 'Ortho'}
      </button>
      <button data-testid="frame-selected" onClick={() => runCommand('frameSelected')} title="Frame selected (F)">
        Frame
      </button>
      <button data-testid="help-button" onClick={() => runCommand('help')} title="Keyboard shortcuts (?)">
        ?
      </button>
    </div>
  );
}

/** The window's inner height, following resizes. */
function useWindowHeight(): number {
  const [h, setH] = useState(() => window.innerHeight);
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

export function App() {
  const shell = getShell();
  // The timeline's height is the animator's (dragged, kept across sessions), within what the window leaves.
  const timelineHeight = clampTimelineHeight(usePrefs((s) => s.timelineHeight), useWindowHeight());
  useEffect(() => {
    const offKeys = installShortcuts();
    const offState = publishDocumentState();
    const offPrune = installPruning();
    let offMenu = () => {};
    if (shell) {
      offMenu = shell.onMenuCommand((cmd, arg) => {
        if (!isMenuCommand(cmd)) return;
        runCommand(cmd, arg);
      });
    }
    // Electron and the HTTP bridge send `autosave` every minute; the Playwright bridge relies on this timer.
    const timer = shell && shell.shell.kind === 'chromium-bridge' ? window.setInterval(() => void autosaveNow(), AUTOSAVE_INTERVAL_MS) : 0;
    startup().catch((e: unknown) => setStatus(`Startup: ${e instanceof Error ? e.message : String(e)}`, true));
    return () => {
      offKeys();
      offState();
      offPrune();
      offMenu();
      if (timer) window.clearInterval(timer);
    };
  }, [shell]);
  return (
    <div className="app" data-testid="app" style={{ gridTemplateRows: `auto auto minmax(0, 1fr) ${timelineHeight}px auto` }} onPointerDownCapture={() => (gizmoInteraction.downOnGizmo = false)}>
      <MenuBar native={shell?.shell.nativeMenus ?? false} />
      <Toolbar />
      <div className="main">
        <Outliner />
        <Viewport />
        <Properties />
      </div>
      <Timeline />
      <StatusBar />
      <HelpPanel />
      <RecoveryDialog />
      <CheckSuggestLayer />
    </div>
  );
}
