type BuildPlace = { root?: string; distDir?: string };
export declare const BUILD_INPUTS: readonly string[];
export declare function buildInputFiles(root?: string): string[];
export declare function buildInputsFingerprint(root?: string): string;
export declare function buildIsStale(place?: BuildPlace): boolean;
export declare function recordBuildInputs(fingerprint: string, place?: BuildPlace): void;
export declare function ensureBuild(): void;
