/** GET /exporters: the leading exporters of a line to the United States. */
import type { ExportersTable } from '../data/exporters.js';
import { exportersJson } from '../serialize.js';
import { GET, type Route } from './route.js';

export const exportersRoute = (exporters: ExportersTable): Route => ({
  path: '/api/v1/exporters',
  methods: GET,
  gate: 'key',
  params: ['hts', 'limit'],
  run: (res) => exportersJson(exporters.top(res.query!.hts, res.query!.limit)),
});
