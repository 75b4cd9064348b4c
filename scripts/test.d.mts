type Counts = { passed: number; failed: number; skipped: number };
export declare function suiteLine(name: string, counts: Counts, extra?: string): string;
export declare function countVitest(data: Record<string, number | undefined>): Counts;
export declare function countPlaywright(stats?: Record<string, number | undefined>): Counts;
export declare function failedVitest(data: unknown): string[];
export declare function failedPlaywright(data: unknown): string[];
