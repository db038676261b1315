// Types of build.mjs, for the tests that build the add-in into a folder of their own.
export declare const TEMPLATE_ORIGIN: string;
export declare const ICON_SIZES: number[];
export declare function addinOrigin(input?: string): string;
export declare function icon(size: number): Buffer;
export declare function png(width: number, height: number, rgba: Buffer): Buffer;
export default function build(
  root: string,
  options?: { outDir?: string; env?: Record<string, string | undefined> },
): Promise<{ outDir: string; origin: string; functions: string[] }>;
