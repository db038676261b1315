/**
 * The OpenAPI 3.0.3 document of /api/v1. Contract tests validate every response the suite receives
 * against these schemas, so this document and the service cannot drift apart.
 */
import { BASES, CLAIMS, MAX_RESULTS, MAX_SEARCH_TEXT, MAX_SEARCHES, ORIGINS } from '../shared/index.js';
import { IEEPA_REFUND_PERIOD, MAX_VALUE_DOLLARS } from '../shared/policy.js';

const IEEPA_ENTRIES = `entries ${IEEPA_REFUND_PERIOD.from} to ${IEEPA_REFUND_PERIOD.through}`;

const money = (description: string) => ({ type: 'number', description, example: 0 });
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (description: string, schema: object) => ({ description, headers: rateHeaders, content: json(schema) });
const err = (ref: string) => ({ $ref: `#/components/responses/${ref}` });
/** What any path can answer besides its own: refused before the handler (bad request line, Host, size, time) or by a limit. */
const publicErrors = {
  '400': err('BadRequest'),
  '405': err('MethodNotAllowed'),
  '408': err('RequestTimeout'),
  '414': err('UriTooLong'),
  '429': err('RateLimited'),
  '431': err('HeadersTooLarge'),
  '500': err('Internal'),
  '503': err('Unavailable'),
};
/** And on paths behind the key. */
const commonErrors = { ...publicErrors, '401': err('Unauthorized') };
const queryParam = (name: string, description: string, schema: object, required = false) => ({ name, in: 'query', required, description, schema });

/** A decimal as text, as the service reads it: digits with at most one point, at most 40 characters, up to MAX_VALUE_DOLLARS. */
const MAX = String(MAX_VALUE_DOLLARS);
const DECIMAL_TEXT = { type: 'string', pattern: `^\\s*\\+?0*(\\d{1,${MAX.length - 1}}(\\.\\d*)?|${MAX}(\\.0*)?|\\.\\d+)\\s*$`, maxLength: 40 };
/** A dollar amount: 0 to MAX_VALUE_DOLLARS, as a number or a decimal text. */
/** A tariff code as the server reads it: digits, dots and spaces, at least one digit. */
const HTS_CODE_PATTERN = '^[0-9. ]*[0-9][0-9. ]*$';
/** A quantity in text: a decimal above 0 (a digit other than 0 somewhere), at most MAX_VALUE_DOLLARS. */
const QTY_TEXT = { ...DECIMAL_TEXT, pattern: `(?=.*[1-9])${DECIMAL_TEXT.pattern}` };
const dollarAmount = { oneOf: [{ type: 'number', minimum: 0, maximum: MAX_VALUE_DOLLARS }, DECIMAL_TEXT] };
/** Entry dates the service accepts: real calendar days from 1989 (the schedule's first year) to 2099. */
const ENTRY_DATE = { type: 'string', format: 'date', pattern: '^(1989|199\\d|20\\d\\d)-\\d\\d-\\d\\d$' };

const content = (what: string) => ({
  ...dollarAmount,
  description: `Dollar value of the ${what}; with the other contents, at most the customs value; default: see assumptions`,
});
const flag = (description: string) => ({ oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, { type: 'string', enum: ['0', '1', 'true', 'false', 'yes', 'no'] }], description });
/** The preference claimed and the importer's facts some chapter 99 measures need (all optional). */
const importerProps = {
  claim: {
    anyOf: [{ type: 'string', enum: [...CLAIMS] }, { type: 'string', pattern: '^[A-Za-z][A-Za-z-]{0,9}\\+?$', description: 'A special-column symbol: A, A+, AU, BH, CL, CO, D, E, IL, JO, KR, MA, OM, P, PA, PE, S, S+, SG, ...' }],
    description: 'Preference claimed: auto (default: the origin\'s own FTA program), none (general rate; no USMCA/KORUS/CAFTA-DR exemptions), usmca, korus, cafta-dr, or a special-column symbol',
  },
  us_content: content('U.S. content (USMCA vehicle routes, IEEPA reciprocal 20% rule)'),
  steel_content: content('steel content (Section 232 derivatives before 2026-04-06)'),
  aluminum_content: content('aluminum content (Section 232 derivatives before 2026-04-06)'),
  copper_content: content('copper content (Section 232 copper, 2025-08-01 to 2026-04-05)'),
  part_for: { type: 'string', enum: ['passenger', 'mhd'], description: 'For 8708 parts on both Section 232 lists (note 33 and note 38), and dual-use provisions: the vehicles the part is for (default passenger for 8708)' },
  patented: flag('Patented pharmaceutical (Section 232 note 40); default 0'),
  uk_melted: flag('UK steel/aluminum at least 95% melted and poured (smelted and cast) in the UK (note 16(d)); default 1'),
  uk_quota: flag('UK vehicle within the UK quota (9903.94.31); default 1'),
  chip_qualifies: flag('Semiconductor article meets the note 39(b) parameters; default 0'),
};

const dutyQueryProps = {
  hts: { type: 'string', pattern: HTS_CODE_PATTERN, description: '8- or 10-digit tariff code, dotted or not: 6109.10.00, 6109100012 (digits, dots and spaces only)', example: '6109.10.00' },
  value: { ...dollarAmount, description: `Customs value in U.S. dollars, 0 to ${MAX_VALUE_DOLLARS} (default 0: no entry, no fees)` },
  origin: { type: 'string', description: `One of ${ORIGINS.join(', ')}; or an ISO country code or English name (CN, Korea, Vietnam)` },
  s301: { type: 'string', description: 'Section 301 for products of China: 25, 7.5, none; omitted or auto derives it from the schedule' },
  ocean: { oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }, { type: 'string' }], description: 'Ocean shipment (adds HMF): 0 or 1' },
  date: { ...ENTRY_DATE, description: 'Entry date, 1989-01-01 to 2099-12-31 (default today): decides which rates, chapter 99 headings and fee figures apply' },
  qty: { oneOf: [{ type: 'number', exclusiveMinimum: true, minimum: 0, maximum: MAX_VALUE_DOLLARS }, QTY_TEXT], description: `Quantity, more than 0 and at most ${MAX_VALUE_DOLLARS}, to compute specific and compound duties` },
  unit: { type: 'string', description: 'Unit of qty, only with qty: kg, g, lb, t, liter, gal, m3, each, doz, gross, thousand, pairs, pack, m2, m, ... (default: the rate\'s unit)' },
  ...importerProps,
};

const additionalDuty = {
  type: 'object',
  additionalProperties: false,
  required: ['program', 'authority', 'heading', 'rate', 'rate_kind', 'basis', 'amount', 'refundable'],
  properties: {
    program: { type: 'string', description: 'Identifier of data/ch99/program_rates.csv: s232_metals, s232_steel, s232_aluminum, s232_copper, s232_aluminum_russia, s232_autos, s232_auto_parts, s232_mhd, s232_buses, s232_mhd_parts, s232_lumber, s232_furniture, s232_cabinets, s232_semiconductors, s232_pharma, s301_china, s301_brazil, s301_forced_labor, ieepa_fentanyl, ieepa_reciprocal, ieepa_brazil, ieepa_india, s122, russia_col2', example: 's232_metals' },
    authority: { type: 'string', enum: ['Section 232', 'Section 301', 'IEEPA', 'Section 122', 'Column 2 (Pub. L. 117-110)'] },
    heading: { type: 'string', nullable: true, description: 'The one chapter 99 provision the entry declares for this layer, e.g. 9903.82.02 (for a "total" rate whose base rate is already at or above it, the paired heading, amount 0); null when the caller set the China Section 301 rate', example: '9903.82.02' },
    rate: { type: 'number', minimum: 0, description: 'Percent (0 for exempt)' },
    rate_kind: {
      type: 'string',
      enum: ['add', 'total', 'exempt'],
      description: 'add: the base duty + rate; total: base duty and this layer together equal rate (the layer is the top-up); exempt: the heading the entry declares to claim an exemption from the program (9903.01.33 for Section 232 goods outside the IEEPA reciprocal duty, 9903.01.32 for Annex II goods, 9903.03.06, 9903.05.90 ...): rate 0, amount 0',
    },
    basis: { type: 'string', enum: [...BASES], description: 'What the rate is charged on' },
    amount: money('USD'),
    refundable: { type: 'boolean', description: `IEEPA duties (${IEEPA_ENTRIES}), held unlawful: may be refunded` },
  },
};

const dutyResult = {
        type: 'object',
        additionalProperties: false,
        required: ['hts', 'description', 'origin', 'customs_value', 'duty_rate', 'rate_basis', 'duty', 'specific_rate', 'section_301', 'mpf', 'hmf', 'total_duties_fees', 'landed_cost', 'special_program', 'section_301_rate', 'section_301_heading', 'hts_revision', 'notes'],
        properties: {
          hts: { type: 'string', description: 'The line found, dotted', example: '6109.10.00' },
          description: { type: 'string' },
          origin: { type: 'string', enum: [...ORIGINS] },
          customs_value: money('Customs value, USD'),
          duty_rate: { type: 'string', nullable: true, description: 'The rate text as printed in the schedule' },
          rate_basis: { type: 'string', enum: ['general', 'special', 'column2'] },
          duty: { type: 'number', nullable: true, description: 'Null for specific or compound rates without qty, and for text rates' },
          specific_rate: { type: 'boolean' },
          section_301: money('Section 301 duty, USD: every Section 301 action (China\'s lists, note 52, Brazil), each also a layer of additional_duties'),
          mpf: money('Merchandise processing fee, USD'),
          hmf: money('Harbor maintenance fee, USD'),
          total_duties_fees: money('duty (0 when null) + additional_duty + mpf + hmf'),
          landed_cost: money('customs_value + total_duties_fees'),
          special_program: { type: 'string', nullable: true, description: 'Program symbol when the special rate applies: KR, S, AU, ...' },
          section_301_rate: { type: 'number', description: 'Percent of China\'s Section 301 lists (the s301 setting)' },
          section_301_heading: { type: 'string', nullable: true, description: 'Chapter 99 heading of China\'s Section 301 lists applied, e.g. 9903.88.15' },
          hts_revision: { type: 'string', example: '2026 Revision 10', description: 'The revision of the schedule in force on the entry date, on which the line was costed (docs/data.md)' },
          notes: { type: 'array', items: { type: 'string' }, description: 'Caveats and fallbacks' },
          origin_country: { type: 'string', nullable: true, pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2 code of the origin country; null when the origin was a program (mfn, col2)' },
          additional_duties: { type: 'array', items: additionalDuty, description: 'Every chapter 99 layer applied, Section 301 China included, in stacking order' },
          section_232: money('Sum of the Section 232 layers, USD'),
          additional_duty: money('Sum of every layer of additional_duties (section_301 included), USD'),
          assumptions: { type: 'array', items: { type: 'string' }, description: 'What was assumed for a fact the query did not give (us_content, part_for, patented, uk_melted, ...)' },
          content_needed: {
            type: 'array',
            items: { type: 'string', enum: ['steel', 'aluminum', 'copper'] },
            description: 'Present only when a metal content was not given and an upper bound stood in (Section 232 before 2026-04-06: the rest of the value taken as the content of the metal of the highest rate, said in assumptions): the metals whose steel_content, aluminum_content or copper_content would make the estimate exact',
          },
          statistical_suffix_needed: {
            type: 'boolean',
            enum: [true],
            description: 'Present (true) only when a ten-digit code whose statistical suffix is not in the schedule was costed at its 8-digit line and a chapter 99 list names ten-digit lines under it (Section 301 lists at statistical precision, metal lists, ...): the layers depend on the suffix; assumptions names the lists and suffixes. Give the full ten-digit code',
          },
        },
      };

export const openapi = {
  openapi: '3.0.3',
  info: {
    title: 'landed API',
    version: '1.0.0',
    description:
      'U.S. import duty and landed-cost estimates from the official Harmonized Tariff Schedule: general, special (FTA) and column 2 rates, Section 301 on products of China, MPF and HMF. ' +
      'Antidumping and countervailing duties are not included; FTA preference assumes the rules of origin are met; results are estimates to be verified with a licensed customs broker.',
  },
  servers: [{ url: '/api/v1' }],
  security: [{ bearerAuth: [] }, { queryKey: [] }],
  paths: {
    '/duty': {
      get: {
        operationId: 'getDuty',
        summary: 'Duty, Section 301, fees and landed cost of one line',
        parameters: [
          queryParam('hts', dutyQueryProps.hts.description, { type: 'string' }, true),
          queryParam('value', dutyQueryProps.value.description, { ...DECIMAL_TEXT, default: '0' }),
          queryParam('origin', dutyQueryProps.origin.description, { type: 'string', default: 'mfn' }),
          queryParam('s301', dutyQueryProps.s301.description, { type: 'string', enum: ['25', '7.5', 'none', 'auto'] }),
          queryParam('ocean', dutyQueryProps.ocean.description, { type: 'string', enum: ['0', '1', 'true', 'false'], default: '0' }),
          queryParam('date', dutyQueryProps.date.description, ENTRY_DATE),
          queryParam('qty', dutyQueryProps.qty.description, QTY_TEXT),
          queryParam('unit', dutyQueryProps.unit.description, { type: 'string' }),
          queryParam('claim', importerProps.claim.description, importerProps.claim.anyOf[0]),
          ...(['us_content', 'steel_content', 'aluminum_content', 'copper_content'] as const).map((k) => queryParam(k, importerProps[k].description, { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$' })),
          queryParam('part_for', importerProps.part_for.description, { type: 'string', enum: ['passenger', 'mhd'] }),
          ...(['patented', 'uk_melted', 'uk_quota', 'chip_qualifies'] as const).map((k) => queryParam(k, importerProps[k].description, { type: 'string', enum: ['0', '1', 'true', 'false', 'yes', 'no'] })),
          { $ref: '#/components/parameters/key' },
        ],
        responses: { '200': ok('The estimate', { $ref: '#/components/schemas/DutyResult' }), '404': err('NotFound'), ...commonErrors },
      },
    },
    '/hts': {
      get: {
        operationId: 'searchHts',
        summary: 'Find the code: the schedule\'s lines by words, or the lines under a code',
        description:
          'By words: the 8- and 10-digit lines ranked by relevance (BM25 over the heading, the levels between and the line\'s own text; trade names such as laptop or LED count as the schedule\'s wording; each answer already shown of a line\'s heading or subheading lowers its place, so the first answers span several headings). ' +
          'By a code of 4, 6, 8 or 10 digits (dotted or not): the lines under it in schedule order with their rates; a foreign 8- or 10-digit code that is no U.S. line gives the U.S. lines of its 6-digit HS subheading, with a note.',
        parameters: [
          queryParam('q', 'Words describing the goods (cotton t-shirts, laptop) or a code of 4, 6, 8 or 10 digits (6109, 8471.30); 2 to 200 characters', { type: 'string', minLength: 2, maxLength: 200 }, true),
          queryParam('limit', `How many lines (1 to ${MAX_RESULTS})`, { type: 'integer', minimum: 1, maximum: MAX_RESULTS, default: 10 }),
          queryParam('chapters98_99', 'Also search chapters 98 and 99 (special provisions, temporary modifications) by words: 0 or 1', { type: 'string', enum: ['0', '1', 'true', 'false', 'yes', 'no'], default: '0' }),
          { $ref: '#/components/parameters/key' },
        ],
        responses: { '200': ok('The lines found', { $ref: '#/components/schemas/HtsSearch' }), '404': err('NotFound'), ...commonErrors },
      },
    },
    '/hts/batch': {
      post: {
        operationId: 'postHtsBatch',
        summary: `Up to ${MAX_SEARCHES} searches in one request (an order's descriptions)`,
        description: `Each query is answered as GET /hts?q=<query>&limit=<limit> would answer it; a query it would refuse gets its error in its place, naming it (queries[i]). At most ${MAX_SEARCHES} queries and ${MAX_SEARCH_TEXT} characters of them in all (else a 400 too_many_lines on queries); a bad limit is a 400 on limit.`,
        parameters: [{ $ref: '#/components/parameters/key' }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/HtsBatchRequest' }) },
        responses: { '200': ok('One answer per query, in order', { $ref: '#/components/schemas/HtsBatchResult' }), '413': err('PayloadTooLarge'), '415': err('UnsupportedMediaType'), ...commonErrors },
      },
    },
    '/hts/{code}': {
      get: {
        operationId: 'getHts',
        summary: 'The schedule record of a 4-, 6-, 8- or 10-digit code',
        parameters: [
          { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: HTS_CODE_PATTERN, maxLength: 100 }, example: '6109.10.00' },
          queryParam('date', 'The record as of this date (YYYY-MM-DD; default today): the revision in force on it (hts_revision names it)', { type: 'string', format: 'date' }),
          { $ref: '#/components/parameters/key' },
        ],
        responses: { '200': ok('The record', { $ref: '#/components/schemas/HtsRecord' }), '404': err('NotFound'), ...commonErrors },
      },
    },
    '/exporters': {
      get: {
        operationId: 'getExporters',
        summary: "The world's leading exporters of the code's HS chapter (2024)",
        parameters: [
          queryParam('hts', 'A tariff code or chapter (its first two digits are the chapter)', { type: 'string' }, true),
          queryParam('limit', 'How many exporters (1 to 50)', { type: 'integer', minimum: 1, maximum: 50, default: 10 }),
          { $ref: '#/components/parameters/key' },
        ],
        responses: { '200': ok('The ranking', { $ref: '#/components/schemas/Exporters' }), '404': err('NotFound'), ...commonErrors },
      },
    },
    '/duty/bulk': {
      post: {
        operationId: 'postDutyBulk',
        summary: 'Cost a whole order (one entry): fees once per entry, allocated to the lines',
        parameters: [{ $ref: '#/components/parameters/key' }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/BulkRequest' }) },
        responses: { '200': ok('Lines and totals', { $ref: '#/components/schemas/BulkResult' }), '413': err('PayloadTooLarge'), '415': err('UnsupportedMediaType'), ...commonErrors },
      },
    },
    '/duty/batch': {
      post: {
        operationId: 'postDutyBatch',
        summary: 'Up to 1,000 independent single-line queries in one request',
        parameters: [{ $ref: '#/components/parameters/key' }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/BatchRequest' }) },
        responses: { '200': ok('One result per query, in order', { $ref: '#/components/schemas/BatchResult' }), '413': err('PayloadTooLarge'), '415': err('UnsupportedMediaType'), ...commonErrors },
      },
    },
    '/refunds/cape': {
      post: {
        operationId: 'postRefundsCape',
        summary: 'The CAPE declaration of a list of entries: each entry\'s IEEPA refund channel on the filing date, and the CSV files CBP\'s CAPE tab takes',
        description:
          'Entries for CAPE now (unliquidated; liquidated at most 80 days before the filing date; liquidation extended or suspended) go in files of at most 9,999 entry numbers under the single header `Entry Number`, each number checked for form and check digit (CATAIR Appendix E) and listed once. ' +
          'One file and nothing refused: that file, `text/csv` (CRLF lines, no line after the last). Otherwise, or with `Accept: application/json`: JSON, the files and the refused entry numbers with the reason (a protest and its date, court action and its date, not for CAPE and why, a bad check digit, a duplicate, an entry that could not be read). ' +
          'Rules and sources: docs/refund-check.md.',
        parameters: [{ $ref: '#/components/parameters/key' }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/CapeRequest' }) },
        responses: {
          '200': {
            description: 'The declaration: one CSV file, or the files and the refused entries',
            headers: rateHeaders,
            content: { 'text/csv': { schema: { type: 'string', example: 'Entry Number\r\nABC-1234567-6' } }, ...json({ $ref: '#/components/schemas/CapeResult' }) },
          },
          '413': err('PayloadTooLarge'),
          '415': err('UnsupportedMediaType'),
          ...commonErrors,
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This document (public: limited per address, apart from failed logins)',
        security: [],
        responses: { '200': { description: 'OpenAPI 3.0.3', headers: rateHeaders, content: json({ type: 'object' }) }, ...publicErrors },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key> (recommended)' },
      queryKey: { type: 'apiKey', in: 'query', name: 'key', description: 'Accepted but discouraged: URLs end up in logs, histories and proxies' },
    },
    parameters: {
      key: { name: 'key', in: 'query', required: false, description: 'API key (discouraged; use the Authorization header)', schema: { type: 'string' } },
    },
    headers: {
      'X-RateLimit-Limit': { description: 'Requests allowed in any 60 seconds for this key (or, without a valid key, this address). POST /hts/batch counts as one request per query it holds; POST /duty/batch and /duty/bulk count as one request whatever their lines', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left now: the limit less those counted in the last 60 seconds (a search batch counting as its queries, see X-RateLimit-Limit); a batch that would pass the limit is refused whole and not counted', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Seconds until the oldest request counted leaves the 60-second span, freeing one more', schema: { type: 'integer' } },
      'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
      'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
      Allow: { description: 'The methods the path has', schema: { type: 'string' } },
    },
    responses: {
      BadRequest: {
        description:
          'invalid_parameter (a bad or unknown parameter or body field, a parameter given twice, a path that is not valid percent-encoding, no Host or several Host headers), invalid_json, duplicate_field (a member name given twice in one object of the body; details.parameter names it), body_too_complex (the body nested more than 16 levels deep, an object of more than 100 members, a list of more than 20,000 entries or more than 100,000 values in all; details names the bound) or too_many_lines. Rate-limit headers are present when a key was identified.',
        content: json({ $ref: '#/components/schemas/Error' }),
      },
      MethodNotAllowed: { description: 'The path exists with other methods, listed in Allow', headers: { Allow: { $ref: '#/components/headers/Allow' } }, content: json({ $ref: '#/components/schemas/Error' }) },
      RequestTimeout: { description: 'The request was not received in full in time; the connection is closed', content: json({ $ref: '#/components/schemas/Error' }) },
      UriTooLong: { description: 'A path segment over 100 characters', content: json({ $ref: '#/components/schemas/Error' }) },
      HeadersTooLarge: { description: 'Request line and headers over 16 KB; the connection is closed', content: json({ $ref: '#/components/schemas/Error' }) },
      Unauthorized: { description: 'Missing or wrong key', headers: { ...rateHeaders, 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } }, content: json({ $ref: '#/components/schemas/Error' }) },
      NotFound: { description: 'Unknown code or chapter without data', headers: rateHeaders, content: json({ $ref: '#/components/schemas/Error' }) },
      PayloadTooLarge: { description: 'Body over 2 MB', headers: rateHeaders, content: json({ $ref: '#/components/schemas/Error' }) },
      UnsupportedMediaType: { description: 'Body is not application/json, or is compressed (Content-Encoding other than identity)', headers: rateHeaders, content: json({ $ref: '#/components/schemas/Error' }) },
      RateLimited: { description: 'Over 120 requests in 60 seconds (sliding: any 60-second span)', headers: { ...rateHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }, content: json({ $ref: '#/components/schemas/Error' }) },
      Internal: { description: 'Unexpected failure (never a stack trace)', content: json({ $ref: '#/components/schemas/Error' }) },
      Unavailable: { description: 'The key store or the rate limiter is unavailable (down, restarting, or slower than the time-out); retry after Retry-After seconds', content: json({ $ref: '#/components/schemas/Error' }) },
    },
    schemas: {
      Error: { type: 'object', required: ['error'], additionalProperties: false, properties: { error: { $ref: '#/components/schemas/ErrorBody' } } },
      ErrorBody: {
            type: 'object',
            required: ['code', 'message'],
            additionalProperties: false,
            properties: {
              code: { type: 'string', enum: ['unauthorized', 'rate_limited', 'not_found', 'method_not_allowed', 'uri_too_long', 'invalid_parameter', 'too_many_lines', 'payload_too_large', 'invalid_json', 'duplicate_field', 'body_too_complex', 'unsupported_media_type', 'request_timeout', 'headers_too_large', 'service_unavailable', 'internal'] },
              message: { type: 'string' },
              details: {
                type: 'object',
                description:
                  'e.g. {"parameter": "value"}; for a heading or subheading typed as hts: level, tariff_lines and candidates (at most 20 of the 8-digit lines under it: hts, description, general rate)',
              },
            },
      },
      DutyResult: dutyResult,
      AdditionalDuty: additionalDuty,
      HtsRecord: {
        type: 'object',
        additionalProperties: false,
        required: ['hts', 'description', 'full_description', 'indent', 'units', 'general', 'special', 'column2', 'rates_from', 'special_programs', 'footnotes', 'chapter99', 'chapter99_programs', 'children', 'hts_revision'],
        properties: {
          hts: { type: 'string' },
          description: { type: 'string' },
          full_description: { type: 'string', description: 'With its parents, joined by " > "' },
          indent: { type: 'integer' },
          units: { type: 'array', items: { type: 'string' } },
          general: { type: 'string', nullable: true },
          special: { type: 'string', nullable: true, description: 'Printed even when the general column is empty (chapter 98/99 provisions)' },
          column2: { type: 'string', nullable: true, description: 'Printed even when the general column is empty, e.g. 9903.90.08: 35%' },
          rates_from: { type: 'string', nullable: true, description: 'The 8-digit line whose rates a 10-digit line inherits' },
          special_programs: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['program', 'rate'], properties: { program: { type: 'string' }, rate: { type: 'string' } } } },
          footnotes: { type: 'array', items: { type: 'string' } },
          chapter99: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['heading', 'rate', 'description'], properties: { heading: { type: 'string' }, rate: { type: 'string', nullable: true }, description: { type: 'string', nullable: true } } },
          },
          chapter99_programs: {
            type: 'array',
            description: 'The chapter 99 programs whose product lists name the code: Section 232 annexes and lists, exemption lists, note 30',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['program', 'list', 'heading', 'from', 'to'],
              properties: {
                program: { type: 'string', description: 'As additional_duties[].program', example: 's232_metals' },
                list: { type: 'string', description: 'Annex tier or list, e.g. "Annex I-A (steel; note 16(c)(iii))", "exempt (note 2(v)(iii))"' },
                heading: { type: 'string', nullable: true, description: 'The general chapter 99 heading of the list (origins may take another)' },
                from: { type: 'string', format: 'date', nullable: true, description: 'First entry date covered; null for a list with no date yet (a proposed annex)' },
                to: { type: 'string', format: 'date', nullable: true, description: 'Last entry date covered; null when open' },
              },
            },
          },
          children: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['hts', 'description'], properties: { hts: { type: 'string' }, description: { type: 'string' } } } },
          hts_revision: { type: 'string' },
        },
      },
      HtsSearch: {
        type: 'object',
        additionalProperties: false,
        required: ['q', 'kind', 'results', 'total', 'same_rates', 'notes', 'hts_revision'],
        properties: {
          q: { type: 'string', description: 'The query as read (white space tidied)' },
          kind: { type: 'string', enum: ['words', 'code'], description: 'words: ranked by relevance; code: the lines under the code, in schedule order' },
          results: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['hts', 'description', 'path', 'general', 'units', 'score'],
              properties: {
                hts: { type: 'string', example: '6109.10.00.12' },
                description: { type: 'string', description: 'The line\'s own text' },
                path: { type: 'array', items: { type: 'string' }, description: 'The descriptions from the heading down to the line' },
                general: { type: 'string', nullable: true, description: 'General rate as printed (a 10-digit line\'s is its 8-digit line\'s)' },
                units: { type: 'array', items: { type: 'string' } },
                score: { type: 'number', nullable: true, description: 'Relevance of a search by words; null in a listing by code' },
              },
            },
          },
          total: { type: 'integer', description: 'Lines matched: by words, of the 50 best at most; by code, every line under it (more than limit shows)' },
          same_rates: { type: 'boolean', nullable: true, description: 'Listing by code: whether every line under it carries the same general, special and column 2 rates and chapter 99 citations (a supplier\'s 6-digit code is then costed by GET /duty); null for words' },
          notes: { type: 'array', items: { type: 'string' } },
          hts_revision: { type: 'string' },
        },
      },
      Exporters: {
        type: 'object',
        additionalProperties: false,
        required: ['chapter', 'chapter_description', 'year', 'source', 'exporters'],
        properties: {
          chapter: { type: 'string', example: '84' },
          chapter_description: { type: 'string' },
          year: { type: 'integer', example: 2024 },
          source: { type: 'string' },
          exporters: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['rank', 'iso3', 'country', 'value_usd', 'share'],
              properties: { rank: { type: 'integer' }, iso3: { type: 'string' }, country: { type: 'string' }, value_usd: { type: 'number' }, share: { type: 'number', description: 'Share of the chapter\'s world exports, 0 to 1' } },
            },
          },
        },
      },
      LineError: { type: 'object', additionalProperties: false, required: ['error'], properties: { error: { $ref: '#/components/schemas/ErrorBody' } } },
      BulkItem: {
        type: 'object',
        additionalProperties: false,
        required: ['hts'],
        properties: {
          hts: dutyQueryProps.hts, value: dutyQueryProps.value, origin: dutyQueryProps.origin, qty: dutyQueryProps.qty, unit: dutyQueryProps.unit,
          date: { ...ENTRY_DATE, description: 'The line\'s own entry date (default the order\'s date). Lines of different dates are different entries: the fees are computed per date (MPF minimum and maximum each), and the response\'s notes say so. Not with entry (one part of a larger entry)' },
          entry_number: { type: 'string', minLength: 1, maxLength: 40, pattern: '\\S', example: 'ABC-1234567-8', description: 'The entry the line was declared on (a past entry checked for its IEEPA refund): totals.refundable_by_heading then gives the figures of each entry (an entry number on a date). It groups only the refund: the fees go by entry date' },
          ...importerProps,
        },
      },
      CapeRequest: {
        type: 'object',
        additionalProperties: false,
        required: ['entries'],
        properties: {
          filing_date: { ...ENTRY_DATE, description: 'The day the declaration is filed (default today, UTC): the 80 and 180 days count to it' },
          refund_date: { ...ENTRY_DATE, description: 'When the refund is expected, the end of the interest estimate (default the filing date + 90 days)' },
          corporate: { type: 'boolean', description: "CBP's overpayment rates for corporations (absent: true, the default), or false for others" },
          entries: {
            type: 'array',
            minItems: 1,
            maxItems: 20000,
            items: {
              type: 'object',
              required: ['entry_number', 'entry_date'],
              properties: {
                entry_number: { type: 'string', example: 'ABC-1234567-6', description: 'XXX-NNNNNNN-C, dashes optional' },
                entry_date: ENTRY_DATE,
                summary_date: { ...ENTRY_DATE, description: 'The entry summary date, when the duty was deposited: interest runs from it (default the entry date)' },
                liquidation_date: { ...ENTRY_DATE, description: 'Absent: estimated at the entry date + 314 days (marked estimated)' },
                liquidation_status: { type: 'string', description: 'unliquidated, liquidated, extended, suspended or final (as ACE reports write them)' },
                entry_type: { type: 'string', pattern: '^\\d{1,2}$', example: '01', description: 'CBP entry type: 08, 09 and 47 are not for CAPE' },
                reconciliation: { type: 'boolean', description: 'Flagged for reconciliation: not for CAPE' },
                drawback: { type: 'boolean', description: 'On a drawback claim: not for CAPE' },
                open_protest: { type: 'boolean', description: 'An open protest: not for CAPE' },
                ieepa: { type: 'boolean', description: 'false: the entry declared no IEEPA chapter 99 number (not for CAPE)' },
                ieepa_deposited: {
                  ...dollarAmount,
                  example: 3000,
                  description: "The IEEPA duty the entry deposited, U.S. dollars: the entry gets its refund and the interest on it. 0: no IEEPA duty (not for CAPE). The duty computed for the entry's date is POST /duty/bulk's (totals.refundable_by_heading)",
                },
              },
            },
          },
        },
      },
      CapeResult: {
        type: 'object',
        additionalProperties: false,
        required: ['filing_date', 'refund_date', 'interest_method', 'files', 'refused', 'entries', 'totals'],
        properties: {
          filing_date: { type: 'string', format: 'date' },
          refund_date: { type: 'string', format: 'date', description: 'The end of the interest estimates' },
          interest_method: { type: 'string', description: 'How the interest is estimated, with its legal source' },
          totals: {
            type: 'array',
            description: 'By channel, in the order a broker acts: CAPE (file now) first, then the earliest deadline first, entries not for CAPE last: entries, the refund deposited (of the entries that gave ieepa_deposited) and its interest, U.S. dollars',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['channel', 'entries', 'refund', 'interest', 'earliest_deadline'],
              properties: {
                channel: { type: 'string', enum: ['cape', 'protest', 'court', 'not_cape'] },
                entries: { type: 'integer' },
                refund: { type: 'number' },
                interest: { type: 'number' },
                earliest_deadline: { type: 'string', format: 'date', nullable: true },
              },
            },
          },
          files: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'entries', 'csv'],
              properties: { name: { type: 'string', example: 'CAPE declaration 1.csv' }, entries: { type: 'integer', minimum: 1, maximum: 9999 }, csv: { type: 'string' } },
            },
          },
          refused: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['entry_number', 'reason'], properties: { entry_number: { type: 'string' }, reason: { type: 'string' } } },
          },
          entries: {
            type: 'array',
            description: 'Each entry read, in order: its channel on the filing date, the deadline to act, its liquidation date (estimated at entry + 314 days when none was given), and the rule applied with its source',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['entry_number', 'channel', 'label', 'deadline', 'liquidation', 'rule'],
              properties: {
                entry_number: { type: 'string' },
                channel: { type: 'string', enum: ['cape', 'protest', 'court', 'not_cape'] },
                label: { type: 'string', example: 'Protest by 2026-08-27' },
                deadline: { type: 'string', format: 'date', nullable: true },
                liquidation: {
                  type: 'object',
                  nullable: true,
                  additionalProperties: false,
                  required: ['date', 'estimated'],
                  properties: { date: { type: 'string', format: 'date' }, estimated: { type: 'boolean' } },
                },
                rule: { type: 'string' },
                refund: { type: 'number', description: 'The IEEPA duty deposited, to be refunded (when ieepa_deposited was given)' },
                interest: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['amount', 'days'],
                  description: 'Estimated interest on the refund from the deposit to refund_date (19 U.S.C. 1505(c)), compounded daily',
                  properties: { amount: { type: 'number' }, days: { type: 'integer' }, note: { type: 'string', description: 'What was assumed (a quarter past the rate table)' } },
                },
              },
            },
          },
        },
      },
      BulkRequest: {
        type: 'object',
        additionalProperties: false,
        required: ['items'],
        properties: {
          items: { type: 'array', maxItems: 1000, items: { $ref: '#/components/schemas/BulkItem' } },
          s301: dutyQueryProps.s301,
          ocean: dutyQueryProps.ocean,
          origin: { ...dutyQueryProps.origin, description: 'Default origin of the items' },
          date: dutyQueryProps.date,
          entry: {
            type: 'object',
            additionalProperties: false,
            required: ['mpf_basis', 'hmf_basis', 'mpf_basis_before', 'hmf_basis_before'],
            description:
              'This request is one part of a larger entry (an order of more than 1,000 lines). Cost every part once and add up their totals.mpf_basis and totals.hmf_basis; then send each part again with the sums and the sums of the parts before it. MPF (minimum and maximum once) and HMF are computed on the whole entry, and each line gets its share by cumulative rounding, so the parts add up to the entry\'s fees to the cent.',
            properties: {
              mpf_basis: { type: 'number', minimum: 0, maximum: MAX_VALUE_DOLLARS, description: 'The entry\'s value liable to MPF, USD: the sum of every part\'s totals.mpf_basis' },
              hmf_basis: { type: 'number', minimum: 0, maximum: MAX_VALUE_DOLLARS, description: 'The entry\'s value liable to HMF, USD' },
              mpf_basis_before: { type: 'number', minimum: 0, maximum: MAX_VALUE_DOLLARS, description: 'The MPF basis of the parts before this one, USD' },
              hmf_basis_before: { type: 'number', minimum: 0, maximum: MAX_VALUE_DOLLARS, description: 'The HMF basis of the parts before this one, USD' },
            },
          },
          ...importerProps,
        },
      },
      BulkLine: {
        oneOf: [
          {
            ...dutyResult,
            required: ['line', ...dutyResult.required],
            properties: {
              line: { type: 'integer' },
              ...dutyResult.properties,
              notes: { type: 'array', items: { type: 'string' }, description: 'The line\'s own notes (fallbacks, Section 301, chapter 99, its MPF exemption). The caveats and the fee figures hold for the whole order: they are in the response\'s notes, once, not repeated here' },
            },
          },
          { type: 'object', additionalProperties: false, required: ['line', 'error'], properties: { line: { type: 'integer' }, error: { $ref: '#/components/schemas/ErrorBody' } } },
        ],
      },
      BulkResult: {
        type: 'object',
        additionalProperties: false,
        required: ['lines', 'totals', 'hts_revision', 'notes'],
        properties: {
          lines: { type: 'array', items: { $ref: '#/components/schemas/BulkLine' } },
          totals: {
            type: 'object',
            additionalProperties: false,
            required: ['lines', 'errors', 'customs_value', 'duty', 'section_301', 'mpf', 'hmf', 'total_duties_fees', 'landed_cost', 'specific_rate_lines', 'section_232', 'additional_duty', 'by_program', 'refundable', 'refundable_by_heading', 'mpf_basis', 'hmf_basis'],
            properties: {
              lines: { type: 'integer' },
              errors: { type: 'integer' },
              customs_value: money('Sum of the lines'),
              duty: money('Sum of the computed duties'),
              section_301: money('Sum'),
              mpf: money('MPF of the entry (minimum and maximum applied once)'),
              hmf: money('HMF of the entry'),
              total_duties_fees: money('Sum'),
              landed_cost: money('Sum'),
              specific_rate_lines: { type: 'integer', description: 'Lines with a specific or compound rate' },
              section_232: money('Sum of the lines\' Section 232 layers'),
              additional_duty: money('Sum of the lines\' chapter 99 layers (section_301 included)'),
              by_program: { type: 'object', additionalProperties: { type: 'number' }, description: 'Sum of the layers of each program (keys as additional_duties[].program), USD' },
              refundable: money('Sum of the refundable (IEEPA) layers'),
              refundable_by_heading: {
                type: 'object',
                additionalProperties: false,
                required: ['total', 'headings'],
                description: 'The IEEPA duties refundable (held unlawful, Learning Resources v. Trump), by 9903 heading, for the order and, when items carry entry_number, per entry (items without one under entry_number null). A line in error counts for nothing and is in no entry',
                properties: {
                  total: money('Sum of the refundable (IEEPA) layers'),
                  headings: { type: 'object', additionalProperties: { type: 'number' }, example: { '9903.01.24': 2000, '9903.01.25': 1000 }, description: 'The same by the 9903 heading declared, USD' },
                  reason: { type: 'string', description: `Present when every line was entered outside the IEEPA duties (${IEEPA_ENTRIES}): why nothing is refundable` },
                  entries: {
                    type: 'array',
                    items: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['entry_number', 'date', 'total', 'headings'],
                      properties: {
                        entry_number: { type: 'string', nullable: true },
                        date: { type: 'string', format: 'date', description: 'The entry date of its lines' },
                        total: money('The entry\'s refundable IEEPA duties'),
                        headings: { type: 'object', additionalProperties: { type: 'number' } },
                        reason: { type: 'string', description: 'Present when the entry date is outside the IEEPA duties: why nothing is refundable' },
                      },
                    },
                  },
                },
              },
              mpf_basis: money('The value of the lines liable to MPF (what entry.mpf_basis adds up over the parts of an entry)'),
              hmf_basis: money('The value of the lines liable to HMF'),
              entry_mpf: money('With entry: the whole entry\'s MPF (mpf is then this part\'s share)'),
              entry_hmf: money('With entry: the whole entry\'s HMF (hmf is then this part\'s share)'),
            },
          },
          hts_revision: { type: 'string', description: "The revisions the lines were costed on (each line's entry date's), in order of first use, joined by '; '" },
          notes: {
            type: 'array',
            items: { type: 'string' },
            description: 'The notes of the whole order, once: the fee figures used (and, with entry, the part\'s share), then the caveats every line is subject to (antidumping and countervailing duties not included, FTA rules of origin assumed, an estimate). The lines do not repeat them',
          },
        },
      },
      BatchRequest: {
        type: 'object',
        required: ['queries'],
        additionalProperties: false,
        properties: { queries: { type: 'array', maxItems: 1000, items: { type: 'object', additionalProperties: false, required: ['hts'], properties: dutyQueryProps } } },
      },
      HtsBatchRequest: {
        type: 'object',
        required: ['queries'],
        additionalProperties: false,
        properties: {
          queries: { type: 'array', maxItems: MAX_SEARCHES, items: { type: 'string', description: 'As GET /hts?q=: words, or a code of 4, 6, 8 or 10 digits' } },
          limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: 'How many lines each answer holds (10 when omitted)' },
        },
      },
      HtsBatchResult: {
        type: 'object',
        additionalProperties: false,
        required: ['answers'],
        properties: { answers: { type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/HtsSearch' }, { $ref: '#/components/schemas/LineError' }] } } },
      },
      BatchResult: {
        type: 'object',
        additionalProperties: false,
        required: ['results'],
        properties: { results: { type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/DutyResult' }, { $ref: '#/components/schemas/LineError' }] } } },
      },
    },
  },
} as const;
