/** Bundled to `dist-electron/main.cjs` (package.json "main"). */
import { main } from './main';

main({ bundleDir: __dirname });
