/** querySelectorAll that skips a selector the browser rejects (the site's list may hold one). */
export function queryAll(root: ParentNode, selector: string): Element[] {
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}

/** The first selector the element matches, or null. */
export function matchingSelector(element: Element, selectors: readonly string[]): string | null {
  for (const selector of selectors) {
    try {
      if (element.matches(selector)) return selector;
    } catch {
      // not a valid selector here
    }
  }
  return null;
}
