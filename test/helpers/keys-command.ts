import { spawn } from 'node:child_process';
import { projectRoot } from '../../server/data/paths.js';

/**
 * The keys command (`npm run keys`: tsx server/cli/keys.ts) on the Node running the tests, with the
 * store that `env` names and `input` on standard input: its exit code and output.
 */
export function keysCommand(env: NodeJS.ProcessEnv, args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/keys.ts', ...args], { cwd: projectRoot, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
