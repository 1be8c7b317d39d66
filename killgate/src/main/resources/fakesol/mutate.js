// fakesol page mutations (PageMutations): filled in with the catalogue.
'use strict';
