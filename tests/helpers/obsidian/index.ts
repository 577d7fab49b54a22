/**
 * A test implementation of the slice of the `obsidian` module the plugin uses, over a real
 * folder. vitest aliases `obsidian` to this file, and so does the browser test build (which swaps
 * `hostFs` and `requestUrl` for their page versions); each class is type-checked against the
 * official declarations (`implements` the official type, or a `Pick` of it), so it cannot drift.
 * Importing it in a page installs Obsidian's DOM helpers (`createEl`, `empty`, `setText`…).
 */
import './dom';

export { FileSystemAdapter } from './adapter';
export { App } from './app';
export { Component } from './component';
export { editorInfoField } from './editor';
export { Events, type EventRef } from './events';
export { FileManager } from './fileManager';
export { TAbstractFile, TFile, TFolder } from './files';
export { setIcon, setTooltip } from './icons';
export { MarkdownRenderer } from './markdown';
export { Editor, MarkdownView } from './markdownView';
export { Modal, Scope } from './modal';
export { Notice } from './notice';
export { normalizePath } from './paths';
export { Platform } from './platform';
export { Plugin } from './plugin';
export { requestUrl } from './requestUrl';
export {
  BaseComponent,
  ButtonComponent,
  DropdownComponent,
  ExtraButtonComponent,
  PluginSettingTab,
  SecretComponent,
  SecretStorage,
  Setting,
  SliderComponent,
  TextAreaComponent,
  TextComponent,
  ToggleComponent,
  ValueComponent,
} from './setting';
export { FuzzySuggestModal, prepareFuzzySearch, SuggestModal } from './suggest';
export { Vault } from './vault';
export { ItemView, View } from './view';
export { Workspace, WorkspaceLeaf } from './workspace';
