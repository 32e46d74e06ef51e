/**
 * Generates `src/gen/<service>.gen.ts` from each pinned tools/list result (`specs/dist/<service>.mcp-tools.json`,
 * checked against its lock): an argument type per tool from its `inputSchema`, the input schemas the client checks
 * arguments against, and a class with one typed method per tool.
 *
 * Run: `pnpm generate` (Node 24 runs this file as is).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type JsonSchema, unsupportedKeywords } from '@agent-apis/core/call';
import { MCP_SERVICES, type McpServiceName, type McpTool, readSyncedToolList } from '@agent-apis/specs/mcp-tools';
import { pascalCase, toolMethodName } from '../src/naming.ts';

const packageDir = join(import.meta.dirname, '..');

/** A JSDoc block (or nothing) at `indent`. */
function doc(lines: (string | undefined)[], indent: string): string {
  const text = lines.filter((line): line is string => Boolean(line)).map((line) => line.replaceAll('*/', '*\\/'));
  if (text.length === 0) return '';
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`;
}

/** The rules of a schema a type cannot say, for its doc comment. */
function constraints(schema: JsonSchema): string | undefined {
  const rules: string[] = [];
  if (schema.minimum !== undefined) rules.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) rules.push(`maximum ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined) rules.push(`greater than ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) rules.push(`less than ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) rules.push(`minimum length ${schema.minLength}`);
  if (schema.maxLength !== undefined) rules.push(`maximum length ${schema.maxLength}`);
  if (schema.pattern !== undefined) rules.push(`pattern /${schema.pattern}/`);
  if (schema.format !== undefined) rules.push(`format ${schema.format}`);
  if (schema.minItems !== undefined) rules.push(`minimum ${schema.minItems} items`);
  if (schema.maxItems !== undefined) rules.push(`maximum ${schema.maxItems} items`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  const text = rules.join(', ');
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : undefined;
}

/** The TypeScript type of values that satisfy `schema`. */
function typeOf(schema: JsonSchema, indent: string): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (types.length === 0) return schema.properties ? objectType(schema, indent) : 'unknown';
  return types
    .map((type) => {
      switch (type) {
        case 'object':
          return objectType(schema, indent);
        case 'array': {
          const item = schema.items ? typeOf(schema.items, indent) : 'unknown';
          return /^[\w.]+$/.test(item) || item.startsWith('{') ? `${item}[]` : `(${item})[]`;
        }
        case 'integer':
          return 'number';
        default:
          return type;
      }
    })
    .join(' | ');
}

function objectType(schema: JsonSchema, indent: string): string {
  const members = objectMembers(schema, `${indent}  `);
  return members ? `{\n${members}${indent}}` : 'Record<string, never>';
}

function objectMembers(schema: JsonSchema, indent: string): string {
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    const optional = required.has(name) ? '' : '?';
    return `${doc([property.description, constraints(property)], indent)}${indent}${key}${optional}: ${typeOf(property, indent)};\n`;
  });
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    lines.push(`${indent}[key: string]: unknown;\n`);
  }
  return lines.join('');
}

function hints(tool: McpTool): string | undefined {
  const a = tool.annotations ?? {};
  const said = [
    a.readOnlyHint && 'read-only',
    a.destructiveHint && 'destructive',
    a.idempotentHint && !a.readOnlyHint && 'idempotent',
  ].filter(Boolean);
  return said.length > 0 ? `Server hints: ${said.join(', ')}.` : undefined;
}

export function generateService(service: McpServiceName, tools: McpTool[], sourceSha256: string, version: string) {
  const serviceName = pascalCase(service);
  const problems = tools.flatMap((tool) =>
    unsupportedKeywords(tool.inputSchema as JsonSchema).map((problem) => `${tool.name}: ${problem}`),
  );
  if (problems.length > 0) {
    throw new Error(
      `${service}: input schemas use JSON Schema the argument checker (core's json-schema.ts) does not enforce; ` +
        `teach it these first:\n  ${problems.join('\n  ')}`,
    );
  }
  const out: string[] = [
    `// @generated by @agent-apis/mcp@${version} from specs/dist/${service}.mcp-tools.json (source sha256 ${sourceSha256}). Do not edit: run \`pnpm generate\`.`,
    "import type { JsonSchema } from '@agent-apis/core/call';",
    "import { type JsonValue, type ToolCallOptions, type ToolOutput, ToolServerClient, type ToolServerConnection } from '../tool-client.js';",
    '',
    `/** The names of the ${service}'s tools. */`,
    `export type ${serviceName}ToolName = ${tools.map((tool) => JSON.stringify(tool.name)).join(' | ')};`,
    '',
  ];
  for (const tool of tools) {
    const schema = tool.inputSchema as JsonSchema;
    const typeName = `${pascalCase(tool.name)}Arguments`;
    const members = objectMembers(schema, '  ');
    out.push(`${doc([`Arguments of \`${tool.name}\`.`], '')}`.trimEnd());
    out.push(
      members ? `export interface ${typeName} {\n${members}}` : `export type ${typeName} = Record<string, never>;`,
    );
    out.push('');
    const output = tool.outputSchema as JsonSchema | undefined;
    if (output) {
      const outputMembers = objectMembers(output, '  ');
      out.push(`${doc([`Structured result of \`${tool.name}\`, from its output schema.`], '')}`.trimEnd());
      out.push(
        outputMembers
          ? `export interface ${pascalCase(tool.name)}Output {\n${outputMembers}}`
          : `export type ${pascalCase(tool.name)}Output = Record<string, never>;`,
      );
      out.push('');
    }
  }
  const withOutput = tools.filter((tool) => tool.outputSchema !== undefined);
  out.push(
    `/** Each tool's input schema, as pinned: arguments are checked against it before a call is sent. */`,
    `export const ${service}InputSchemas: Readonly<Record<${serviceName}ToolName, JsonSchema>> = ${JSON.stringify(
      Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema])),
      null,
      2,
    )};`,
    '',
    `/** The output schemas of the tools that declare one: their structured results are checked under \`validateResponses\`. */`,
    `export const ${service}OutputSchemas: Readonly<Partial<Record<${serviceName}ToolName, JsonSchema>>> = ${JSON.stringify(
      Object.fromEntries(withOutput.map((tool) => [tool.name, tool.outputSchema])),
      null,
      2,
    )};`,
    '',
    `/** One typed method per tool of the ${service}'s agent tool server. */`,
    `export class ${serviceName}ToolMethods extends ToolServerClient<${serviceName}ToolName> {`,
    '  constructor(connection: ToolServerConnection) {',
    `    super(connection, ${service}InputSchemas, ${service}OutputSchemas);`,
    '  }',
  );
  for (const tool of tools) {
    const typeName = `${pascalCase(tool.name)}Arguments`;
    const optional = (tool.inputSchema.required as string[] | undefined)?.length ? '' : ' = {}';
    const data = tool.outputSchema ? `${pascalCase(tool.name)}Output` : 'JsonValue | undefined';
    out.push(
      '',
      doc([tool.description, hints(tool), `Calls \`${tool.name}\`.`], '  ').trimEnd(),
      `  ${toolMethodName(tool.name)}(args: ${typeName}${optional}, options?: ToolCallOptions): Promise<ToolOutput<${data}>> {`,
      `    return this.callToolForData(${JSON.stringify(tool.name)}, args, options);`,
      '  }',
    );
  }
  out.push('}', '');
  return out.join('\n');
}

async function main(): Promise<void> {
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  await mkdir(join(packageDir, 'src', 'gen'), { recursive: true });
  for (const service of MCP_SERVICES) {
    const synced = await readSyncedToolList(service);
    const file = join(packageDir, 'src', 'gen', `${service}.gen.ts`);
    await writeFile(file, generateService(service, synced.list.tools, synced.sha256, version));
    console.log(`${service}: ${synced.list.tools.length} tools → src/gen/${service}.gen.ts`);
  }
}

if (import.meta.main) await main();
