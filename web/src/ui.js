// Small DOM helpers shared by the modes: the controls bar, element
// creation, and a debounced callback.

/** Creates an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'style') node.style.cssText = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

/** The controls bar of the header: labelled inputs a mode adds. */
export function controlsPanel(form) {
  return {
    /** A text field; `onCommit(value)` on Enter or change. */
    text(label, value, onCommit, attrs = {}) {
      const input = el('input', { type: 'text', value, spellcheck: 'false', ...attrs });
      input.addEventListener('change', () => onCommit(input.value.trim()));
      input.addEventListener('keydown', (e) => e.stopPropagation());
      form.append(el('label', {}, label, input));
      return input;
    },
    /** A number field. */
    number(label, value, onCommit, attrs = {}) {
      const input = el('input', { type: 'number', value, ...attrs });
      input.addEventListener('change', () => onCommit(Number(input.value)));
      input.addEventListener('keydown', (e) => e.stopPropagation());
      form.append(el('label', {}, label, input));
      return input;
    },
    /** A drop-down of `[value, text]` pairs. */
    select(label, options, value, onCommit) {
      const select = el('select', {});
      for (const [v, text] of options) select.append(el('option', { value: v, selected: v === value }, text));
      select.addEventListener('change', () => onCommit(select.value));
      form.append(el('label', {}, label, select));
      return select;
    },
    /** A checkbox. */
    checkbox(label, checked, onCommit) {
      const input = el('input', { type: 'checkbox', checked });
      input.addEventListener('change', () => onCommit(input.checked));
      form.append(el('label', {}, input, label));
      return input;
    },
    /** A button. */
    button(text, onClick, attrs = {}) {
      const button = el('button', { type: 'button', ...attrs }, text);
      button.addEventListener('click', onClick);
      form.append(button);
      return button;
    },
  };
}

/** A random seed as text (digits), for "new seed" buttons. */
export function randomSeed() {
  return String(Math.floor(Math.random() * 1e9));
}
