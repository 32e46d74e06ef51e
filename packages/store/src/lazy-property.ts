/**
 * Members made on first read: the store client has 179 operations, each both in `api` and as a resource method, and
 * building all of them in every constructor made the first `new StoreClient()` of a process cost several milliseconds.
 * An accessor from here makes the value the first time it is read and keeps it as an ordinary property from then on.
 */

/** Defines `name` on `holder` as the enumerable, writable data property a plain assignment would make. */
function keepProperty(holder: object, name: string, value: unknown): void {
  Object.defineProperty(holder, name, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * An enumerable accessor for `name`: its first read makes the value from the object it is read on (`make(holder)`)
 * and keeps it there as a data property (so later reads, and a method taken off the object and called alone, see
 * one value); a write before any read keeps the written value, as it would for a plain property.
 */
export function lazyProperty<Holder extends object>(
  name: string,
  make: (holder: Holder) => unknown,
): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: true,
    get(this: Holder) {
      const value = make(this);
      // A frozen holder keeps nothing: each read then makes the value again, as it worked before it was frozen.
      Reflect.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      return value;
    },
    set(this: Holder, value: unknown) {
      keepProperty(this, name, value);
    },
  };
}
