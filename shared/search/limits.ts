/**
 * The bounds of a search request: imports nothing, so the add-ins that split their searches by them
 * take none of the search engine into their bundles.
 */
export const MAX_RESULTS = 50;
/** Searches in one POST /hts/batch: each costs a few milliseconds of CPU. */
export const MAX_SEARCHES = 50;
/**
 * Characters of query text in one POST /hts/batch: a long query costs more (about 29 ms for 200
 * characters on a loaded 2-core machine), so fifty of them would hold the service for over a second;
 * 2,000 characters is fifty invoice descriptions of 40, or ten of the longest.
 */
export const MAX_SEARCH_TEXT = 2_000;
