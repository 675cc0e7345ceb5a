// jobboard-connector/widget: the elements' npm entry, from the front-end
// package @jobboard-connector/widget (an optional dependency of this one),
// for applications that imported it from here before the packages split.
export * from '@jobboard-connector/widget';
