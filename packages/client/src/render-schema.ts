// openapi.json -> TypeScript types of every path (openapi-typescript), with a header saying the
// file is generated. Shared by the generator and the staleness test so both render the same text.
import openapiTS, { astToString } from "openapi-typescript";

export async function renderSchema(doc: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(doc as never);
  return `// Generated from openapi.json by scripts/generate.ts (openapi-typescript). Do not edit.\n${astToString(ast)}`;
}
