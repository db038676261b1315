/** GET /openapi.json: the public document, limited per address. */
import { openapiJson } from '../serialize.js';
import { GET, type Route } from './route.js';

export const openapiRoute: Route = { path: '/api/v1/openapi.json', methods: GET, gate: 'public', params: [], run: openapiJson };
