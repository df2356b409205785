// The keys of a two-choice question (1. yes / 2. no): the digits answer at once, the arrows move
// between the two, Enter answers the one shown, Esc and Ctrl+C answer no.
import { useState } from "react";
import { useKeys } from "../input/use-keys.js";

/** Returns which choice is shown as selected: 0 for yes, 1 for no. */
export function useYesNo(initial: 0 | 1, onAnswer: (yes: boolean) => void): number {
  const [selected, setSelected] = useState<number>(initial);
  useKeys((event) => {
    if (event.kind === "text" && (event.text === "1" || event.text === "2")) onAnswer(event.text === "1");
    else if (event.kind !== "key") return;
    else if (event.name === "up" || event.name === "down") setSelected((s) => 1 - s);
    else if (event.name === "enter") onAnswer(selected === 0);
    else if (event.name === "escape" || event.name === "ctrlC") onAnswer(false);
  });
  return selected;
}
