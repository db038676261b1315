import { test } from 'vitest';
import { startAddon, serverRequests } from './harness.js';
test('smoke', async () => {
  const a = await startAddon();
  const w = a.world;
  console.log(JSON.stringify(w.call('DUTY', '6109.10.00', 10000, 'china')));
  console.log(JSON.stringify(w.call('DUTY', [['6109.10.00'], ['9999.99.99'], ['6109'], [''], ['2204.21.50']], [[10000], [5], [5], [''], [1000]], 'china')));
  console.log(JSON.stringify(w.call('DESC', [['6109.10.00'], ['6109'], ['0101']])));
  console.log(JSON.stringify(w.call('RESULT', '6109.10.00', 10000, 'china', '', '', true)));
  console.log(JSON.stringify(w.call('EXPORTERS', '8471.30.01', 3)));
  console.log(JSON.stringify(w.call('testConnection')));
  console.log(w.requests.length, await serverRequests(a.server, '/api/v1/duty/batch'));
  await a.close();
});
