import { AgentApiError } from '@agent-apis/core';
import { redactValue } from '@agent-apis/core/call';
import { redactText } from '@agent-apis/core/service';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const MAX_DETAIL_LENGTH = 300;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH)}…` : line;
}

/**
 * A tool call the server did not carry out: the tool ran and reported an error (an `isError: true` result;
 * `code` is undefined), or the server refused the JSON-RPC request (`code` is the JSON-RPC error code, e.g.
 * -32602 for invalid params). Everything it holds is redacted.
 */
export class ToolError extends AgentApiError {
  override name = 'ToolError';
  /** The tool's name, or the JSON-RPC method (`tools/list`, `initialize`) when the failure was not a tool call. */
  readonly operation: string;
  /** The JSON-RPC error code; undefined when the tool itself reported the error. */
  readonly code: number | undefined;
  /** The content of the error result (text blocks and the like); empty for a JSON-RPC error. */
  readonly content: CallToolResult['content'];
  /** The JSON-RPC error's `data`, when it had some. */
  readonly data: unknown;

  constructor(
    operation: string,
    message: string,
    details: { code?: number; content?: CallToolResult['content']; data?: unknown } = {},
  ) {
    super(message);
    this.operation = operation;
    this.code = details.code;
    this.content = details.content ?? [];
    this.data = details.data;
  }

  /** The error a tool reported in an `isError: true` result. */
  static fromResult(operation: string, result: CallToolResult, secrets: readonly string[]): ToolError {
    const content = redactValue(result.content, secrets) as CallToolResult['content'];
    const text = content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .filter(Boolean)
      .join(' ');
    return new ToolError(operation, `Tool ${operation} reported an error${text ? `: ${oneLine(text)}` : ''}`, {
      content,
    });
  }

  /** The server's JSON-RPC refusal of a request. */
  static fromRpcError(
    operation: string,
    error: { code: number; message: string; data?: unknown },
    secrets: readonly string[],
  ): ToolError {
    const detail = oneLine(redactText(error.message.replace(/^(MCP error -?\d+: )+/, ''), secrets));
    return new ToolError(operation, `${operation} was refused by the server (JSON-RPC ${error.code}): ${detail}`, {
      code: error.code,
      data: redactValue(error.data, secrets, { maskCredentialKeys: true }),
    });
  }
}
