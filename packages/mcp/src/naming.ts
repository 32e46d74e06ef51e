/** `list_products` → `ListProducts`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The client method of a tool: `list_products` → `listProducts`. */
export function toolMethodName(tool: string): string {
  const pascal = pascalCase(tool);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}
