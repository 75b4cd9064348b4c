// Token counting with the o200k_base encoding (GPT-4o family and a good estimate for other modern models).
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

export function countTokens(text: string): number {
  return text ? countO200k(text) : 0;
}
