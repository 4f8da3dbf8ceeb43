import { serveDir } from "@std/http/file-server";
Deno.serve({ hostname: "127.0.0.1", port: 8000 }, (req) => serveDir(req, { fsRoot: "public" }));
