import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The browser tests poll a page for what it shows; on a busy machine a step took more than the
    // default second (a sidebar's 1,000-line order, eight calls in turn). The value polled for is unchanged.
    expect: { poll: { timeout: 10_000 } },
  },
});
