export declare const REQUIRED_NODE_MAJOR: number;
export declare function nodeVersionProblem(version: string, execPath?: string): string | null;
export declare function exitUnlessNodeWillDo(): void;
