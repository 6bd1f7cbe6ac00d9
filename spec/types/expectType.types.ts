// Self-test of the type assertions used by the other `*.types.ts` files.
import { assertTrue, Equal, expectExactType, expectType } from './expectType';

expectType<string>('text');
// @ts-expect-error a number is not a string
expectType<string>(1);
expectExactType<number>()(1 as number);
// @ts-expect-error `number | string` is not exactly `number`
expectExactType<number>()(1 as number | string);
assertTrue<Equal<{ a: 1 }, { a: 1 }>>();
// @ts-expect-error different types are not equal
assertTrue<Equal<{ a: 1 }, { a: 2 }>>();
