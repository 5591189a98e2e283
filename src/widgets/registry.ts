// The widget classes this service offers, by the class name clients send as `widgetClass`.
import type { WidgetDef } from './define.js';
import { HeadingWidget } from './heading.js';
import { EditorWidget } from './editor.js';
import { ImageWidget } from './image.js';
import { ButtonWidget } from './button.js';
import { ContactFormWidget } from './contact-form.js';

export const WIDGETS: readonly WidgetDef[] = [HeadingWidget, EditorWidget, ImageWidget, ButtonWidget, ContactFormWidget];

const BY_NAME = new Map(WIDGETS.map((w) => [w.name, w]));

/** The class of that exact name (class names are case-sensitive, as the plugin's registry keys). */
export function widgetClass(name: string): WidgetDef | undefined {
  return BY_NAME.get(name);
}
