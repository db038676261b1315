import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/data/paths.js';

const run = (...args: string[]) => promisify(execFile)('npm', ['run', '--silent', 'duty', '--', ...args], { cwd: projectRoot });

describe('npm run duty', () => {
  it('prints the estimate as JSON', async () => {
    const { stdout } = await run('6109.10.00', '10000', 'china', '--date', '2026-11-21', '--ocean');
    // 1,650 + 750 (301 List 4A) + 1,250 (note 52, China +12.5% since 2026-07-24) + 34.64 + 12.50 = 3,697.14
    // section_301: every Section 301 action, 750 + 1,250 (issue 30).
    expect(JSON.parse(stdout)).toMatchObject({ duty: 1650, section_301: 2000, additional_duty: 2000, mpf: 34.64, hmf: 12.5, landed_cost: 13697.14 });
  });
  it('bad input: the parameter and the problem on stderr, exit 2', async () => {
    await expect(run('6109.10.00', '-3')).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/^value: value must be/) });
  });
});
