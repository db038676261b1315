/** Types of build.mjs, for the tests. */
export declare const DEFAULT_API_ORIGIN: string;
export declare function apiOrigin(input: string): string;
export declare function exportedFunctions(file: string): { name: string; params: string[]; jsdoc: string }[];
export default function build(root: string, options?: { outDir?: string; apiOrigin?: string }): Promise<{ outDir: string; apiOrigin: string; functions: string[] }>;
