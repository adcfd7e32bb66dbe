/** The package version, reported by `mcp` to its clients (a test keeps it equal to package.json). */
export const VERSION = '0.1.0';
