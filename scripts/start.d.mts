export declare function buildIsStale(): boolean;
export declare function ensureBuild(): void;
