import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createHttpImpulseApi, hasHttpBridge } from '../../electron/ipc/httpClient';
import { setHttpFallback } from './bridge/shell';
import { App } from './App';
import { installTestHook } from './testHook';
import './styles.css';

if (!window.impulse && hasHttpBridge()) setHttpFallback(() => createHttpImpulseApi());
installTestHook();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
