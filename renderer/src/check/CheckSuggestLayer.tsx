/**
 * Everything of the checking half that lives outside the 3D scene, in one
 * mount: the Check / Suggest dock (floating over the viewport's right edge),
 * the progress bar of the running job, and the export dialog. It also wires
 * the checking and suggesting state to the document and the playhead.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { JobProgress } from '../workers/JobProgress';
import { ExportDialog } from '../export/ExportDialog';
import { SuggestPanel } from '../suggest/SuggestPanel';
import { installSuggesting, useSuggest } from '../suggest/suggestStore';
import { FindingsPanel } from './FindingsPanel';
import { installChecking } from './checkStore';
import { installCheckTestHook } from './testHook';
import { showDock, useDock } from './dock';
import './check.css';


function Dock() {
  const { tab, collapsed } = useDock();
  const hasSuggestion = useSuggest((s) => s.result !== null);
  // Folded, the dock keeps its tab strip: it used to vanish, and only running Check clip or Suggest brought it back.
  return (
    <div className={`cs-dock${collapsed ? ' collapsed' : ''}`} data-testid="cs-dock" onPointerDown={(e) => e.stopPropagation()}>
      <div className="cs-tabs">
        <button data-testid="tab-check" className={tab === 'check' ? 'on' : ''} onClick={() => showDock('check')}>
          Check
        </button>
        <button data-testid="tab-suggest" className={tab === 'suggest' ? 'on' : ''} onClick={() => showDock('suggest')}>
          Suggest{hasSuggestion ? ' ●' : ''}
        </button>
        <button className="cs-collapse" data-testid="dock-collapse" title={collapsed ? 'Show' : 'Hide'} onClick={() => useDock.setState({ collapsed: !collapsed })}>
          {collapsed ? '▾' : '▴'}
        </button>
      </div>
      {!collapsed && (tab === 'check' ? <FindingsPanel /> : <SuggestPanel />)}
    </div>
  );
}

export function CheckSuggestLayer() {
  useEffect(() => {
    installCheckTestHook();
    const offCheck = installChecking();
    const offSuggest = installSuggesting();
    return () => {
      offCheck();
      offSuggest();
    };
  }, []);
  const [host, setHost] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const find = () => document.querySelector<HTMLElement>('[data-testid="viewport"]');
    const el = find();
    if (el) {
      setHost(el);
      return;
    }
    const mo = new MutationObserver(() => {
      const e = find();
      if (e) {
        setHost(e);
        mo.disconnect();
      }
    });
    mo.observe(document.body, { childList: true, subtree: true });
    return () => mo.disconnect();
  }, []);
  return (
    <>
      {host && createPortal(<Dock />, host)}
      <JobProgress />
      <ExportDialog />
    </>
  );
}
