import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './fixtures/bridge';

/**
 * E2E specs run the built renderer (`npm run build:renderer` first; `npm run
 * test:e2e` does it) in this machine's Chromium through the bridge fixture
 * (`e2e/fixtures/bridge.ts`). One worker: the machine has 2 cores and WebGL
 * runs on SwiftShader.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // The list reporter ends with the summary line (`N passed (Xs)`), which .ci/run relies on.
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
