/**
 * The esbuild settings every Lambda bundle shares, in a module free of CDK so the bundle-size test and
 * bench build exactly what AppFunction deploys.
 */

/** The Lambda runtime's Node (NODEJS_22_X), which is also .nvmrc's: the code is built for one Node. */
export const BUNDLE_TARGET = 'node22';

/** Some CommonJS dependencies call require() on Node built-ins; give the ESM bundle one. */
export const ESM_REQUIRE_BANNER = "import { createRequire as __tpCreateRequire } from 'node:module'; const require = __tpCreateRequire(import.meta.url);";
