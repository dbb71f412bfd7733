// Types of bundles.mjs (plain JavaScript: scripts/launch.mjs reads it before TypeScript can be loaded).
export declare const ROOT: string;
export declare const WORKER_BUNDLE_DIR: string;
export declare const SCRIPT_BUNDLE_DIR: string;
export declare function bundleFile(dir: string, source: string): string;
export declare const SOURCES_STAMP: string;
export declare function sourcesStamp(dirs?: readonly string[], files?: readonly string[]): string;
export declare function freshBuild(outputs: readonly string[], dirs?: readonly string[], files?: readonly string[], stampFile?: string): boolean;
export declare function freshBundle(bundle: string, dirs?: readonly string[], files?: readonly string[], stampFile?: string): boolean;
