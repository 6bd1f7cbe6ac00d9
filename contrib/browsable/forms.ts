/**
 * HTML forms generated from serializers (the original's `HTMLFormRenderer` with its
 * horizontal template pack): one control per writable field, chosen by field class and
 * `style` (`{ base_template: 'textarea.html' }`, `{ input_type: 'password' }`), with the
 * bound value and the field's errors. Every value is escaped.
 */
import {
  BooleanField, ChoiceField, DateField, DateTimeField, DictField, EmailField, Field, FileField, FloatField,
  HiddenField, IntegerField, JSONField, ListField, MultipleChoiceField, TimeField, URLField, type SelectOption,
} from '../../lib/fields';
import { gettext } from '../../lib/core/i18n';
import { ManyRelatedField, RelatedField } from '../../lib/relations';
import { BaseSerializer, ListSerializer, Serializer } from '../../lib/serializers';
import { apiSettings } from '../../lib/settings';
import { dumps } from '../../lib/utils/json';
import { escapeHtml } from '../../lib/core/html';

/** A serializer whose form can be rendered: its fields and (after validation) errors. */
export type FormSerializer = Serializer;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof String);
}

function errorMessages(errors: unknown): string[] {
  if (errors === undefined || errors === null) return [];
  if (Array.isArray(errors)) return errors.flatMap((error) => (isRecord(error) ? [] : [String(error)]));
  if (isRecord(errors)) return [];
  return [String(errors)];
}

function textValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !(value instanceof Date)) return dumps(value);
  return String(value);
}

function inputType(field: Field): string {
  const styled = field.style.input_type;
  if (typeof styled === 'string') return styled;
  if (field instanceof EmailField) return 'email';
  if (field instanceof URLField) return 'url';
  // DecimalField has no entry in the original's default style: it is a text input.
  if (field instanceof IntegerField || field instanceof FloatField) return 'number';
  if (field instanceof DateTimeField) return 'datetime-local';
  if (field instanceof DateField) return 'date';
  if (field instanceof TimeField) return 'time';
  return 'text';
}

/** `value` with the keys of its plain objects sorted, as the original dumps JSON for forms. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

interface Control {
  id: string;
  name: string;
  field: Field;
  value: unknown;
  errors: unknown;
}

/** True for a field that lists its choices (choice and relational fields). */
function hasOptions(field: Field): field is Field & { iterOptions(): SelectOption[] | Promise<SelectOption[]> } {
  return 'iterOptions' in field && typeof field.iterOptions === 'function';
}

async function selectOptions(field: Field): Promise<SelectOption[]> {
  return hasOptions(field) ? await field.iterOptions() : [];
}

function renderOptions(options: SelectOption[], selected: Set<string>): string {
  let out = '';
  for (const option of options) {
    if (option.kind === 'startGroup') out += `<optgroup label="${escapeHtml(textValue(option.label))}">`;
    else if (option.kind === 'endGroup') out += '</optgroup>';
    else {
      const value = textValue(option.value);
      const attrs = `${selected.has(value) ? ' selected' : ''}${option.disabled ? ' disabled' : ''}`;
      out += `<option value="${escapeHtml(value)}"${attrs}>${escapeHtml(textValue(option.displayText))}</option>`;
    }
  }
  return out;
}

async function renderWidget(control: Control): Promise<string> {
  const { field, id, name, value } = control;
  const attrs = `id="${escapeHtml(id)}" name="${escapeHtml(name)}"`;
  if (field instanceof BooleanField) {
    const checked = value === true || value === 'true' || value === 'True' || value === 'on';
    return `<div class="checkbox"><input type="checkbox" ${attrs} value="true"${checked ? ' checked' : ''}></div>`;
  }
  if (field instanceof ManyRelatedField || field instanceof MultipleChoiceField) {
    const values = Array.isArray(value) ? value : value instanceof Set ? [...value] : [];
    const selected = new Set(values.map(textValue));
    const options = await selectOptions(field);
    if (options.length === 0) {
      return `<select multiple disabled class="form-control" ${attrs}><option>${escapeHtml(gettext('No items to select.'))}</option></select>`;
    }
    return `<select multiple class="form-control" ${attrs}>${renderOptions(options, selected)}</select>`;
  }
  if (field instanceof RelatedField || field instanceof ChoiceField) {
    const current = textValue(value);
    const blankAllowed = field.allowNull || (field instanceof ChoiceField && field.allowBlank);
    const blank = blankAllowed ? `<option value=""${current === '' ? ' selected' : ''}>--------</option>` : '';
    return `<select class="form-control" ${attrs}>${blank}${renderOptions(await selectOptions(field), new Set([current]))}</select>`;
  }
  if (field instanceof FileField) return `<input type="file" class="form-control" ${attrs}>`;
  if (field instanceof ListField) return '<p class="help-block">Lists are not currently supported in HTML input.</p>';
  if (field instanceof DictField) return '<p class="help-block">Dictionaries are not currently supported in HTML input.</p>';
  if (field instanceof JSONField || field.style.base_template === 'textarea.html') {
    const rows = typeof field.style.rows === 'number' ? field.style.rows : 6;
    const text = field instanceof JSONField && value !== null && value !== undefined && typeof value !== 'string'
      ? dumps(sortKeys(value), { indent: 4 })
      : textValue(value);
    return `<textarea class="form-control" rows="${rows}" ${attrs}>${escapeHtml(text)}</textarea>`;
  }
  const type = inputType(field);
  let text = textValue(value);
  if (type === 'datetime-local') text = text.replace(/Z$/, '');
  const placeholder = typeof field.style.placeholder === 'string' ? ` placeholder="${escapeHtml(field.style.placeholder)}"` : '';
  const step = type === 'number' && !(field instanceof IntegerField) ? ' step="any"' : '';
  return `<input type="${escapeHtml(type)}" class="form-control" ${attrs} value="${escapeHtml(text)}"${placeholder}${step}>`;
}

async function renderControl(control: Control): Promise<string> {
  const { field, id } = control;
  if (field instanceof HiddenField) return '';
  if (field instanceof ListSerializer) {
    return `<fieldset><legend>${escapeHtml(field.label ?? control.name)}</legend>` +
      '<p class="help-block">Lists are not currently supported in HTML input.</p></fieldset>';
  }
  if (field instanceof Serializer) {
    const nested = await renderFields(field, isRecord(control.value) ? control.value : {},
      isRecord(control.errors) ? control.errors : {}, `${control.name}.`, `${id}.`);
    return `<fieldset><legend>${escapeHtml(field.label ?? control.name)}</legend>${nested}</fieldset>`;
  }
  const messages = errorMessages(control.errors);
  const help = field.helpText ? `<span class="help-block">${escapeHtml(field.helpText)}</span>` : '';
  const errors = messages.length
    ? `<ul class="errorlist">${messages.map((message) => `<li>${escapeHtml(message)}</li>`).join('')}</ul>`
    : '';
  return `<div class="form-group${messages.length ? ' has-error' : ''}">` +
    `<label class="control-label" for="${escapeHtml(id)}">${escapeHtml(field.label ?? control.name)}</label>` +
    `<div class="controls">${await renderWidget(control)}${errors}${help}</div></div>`;
}

async function renderFields(serializer: Serializer, values: Record<string, unknown>, errors: Record<string, unknown>,
  namePrefix: string, idPrefix: string): Promise<string> {
  const parts: string[] = [];
  for (const [name, field] of serializer.fields.entries()) {
    if (field.readOnly) continue;
    parts.push(await renderControl({
      id: `${idPrefix}${name}`, name: `${namePrefix}${name}`, field, value: values[name], errors: errors[name],
    }));
  }
  return parts.join('\n');
}

/**
 * Render the controls of `serializer`'s writable fields: values from its data (the
 * instance, or the submitted data after a failed validation) and its errors. `idPrefix`
 * keeps element ids unique when a page has several forms.
 */
export async function renderSerializerForm(serializer: BaseSerializer, idPrefix = ''): Promise<string> {
  if (!(serializer instanceof Serializer)) throw new TypeError('Only a Serializer (not a list) can be rendered as an HTML form.');
  let errors: unknown = {};
  try {
    errors = serializer.errors;
  } catch {
    // Not validated: an empty or instance-bound form.
  }
  const data = await serializer.getData();
  const nonField = errorMessages(isRecord(errors) ? errors[apiSettings.NON_FIELD_ERRORS_KEY] : undefined);
  const alert = nonField.length
    ? `<div class="alert alert-danger">${nonField.map((message) => escapeHtml(message)).join('<br>')}</div>`
    : '';
  return alert + await renderFields(serializer, isRecord(data) ? data : {}, isRecord(errors) ? errors : {}, '', `${idPrefix}id_`);
}
