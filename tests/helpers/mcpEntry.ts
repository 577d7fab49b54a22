// A stand-in for `recursa mcp` when the built command line is older than the source: `mcpCli.ts` bundles
// this file the way esbuild.config.mjs bundles the command line.
import { mcpCommand } from '../../src/node/mcpCommand';

process.exitCode = await mcpCommand(process.argv.slice(2));
