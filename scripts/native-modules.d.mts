export declare function isNativeBuildError(error: unknown): boolean;
export declare function betterSqliteProblem(root: string, nodeVersion?: string): string | null;
export declare function exitUnlessSqliteDriverLoads(root: string): void;
