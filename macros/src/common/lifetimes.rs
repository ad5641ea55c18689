//! Names for the elided lifetimes of a question function's input types. The question macros
//! implement traits over the inputs (`impl<'__rondo_0> Trait<(&'__rondo_0 Package,)> for approve`),
//! and an impl header states every lifetime it uses, so each elided one gets a name, fresh per
//! elision as in the function's own signature.
#![cfg_attr(
    not(test),
    expect(dead_code, reason = "used by the question macros, which come next")
)]

use proc_macro2::Span;
use syn::visit_mut::{self, VisitMut};
use syn::{GenericParam, Generics, Lifetime, LifetimeParam, Type};

/// Input types with every lifetime named, and the generics that declare them.
pub struct Named {
    /// The types, in order, each elided lifetime (`&T`, `&'_ T`, `Foo<'_>`, `dyn Trait + '_`)
    /// replaced by a fresh `'__rondo_N`.
    pub types: Vec<Type>,
    /// The function's own lifetime parameters (with their bounds and `where` clause), then the
    /// fresh ones: what the impl declares, `impl #impl_generics Trait<..>`.
    pub generics: Generics,
}

/// Names the elided lifetimes of `types`, the inputs of a function whose generics are
/// `generics` (only lifetimes: a question function cannot be generic over types). A lifetime
/// inside a `fn(&T)` pointer or `Fn(&T)` bound stays elided: it belongs to that type, not to the
/// impl. A lifetime hidden in a path (`Foo` for `Foo<'a>`) cannot be seen here; rustc asks for
/// `Foo<'_>` in the impl header then.
pub fn name_elided<'t>(generics: &Generics, types: impl IntoIterator<Item = &'t Type>) -> Named {
    let mut namer = Namer {
        taken: generics
            .lifetimes()
            .map(|l| l.lifetime.ident.to_string())
            .collect(),
        fresh: Vec::new(),
    };
    let types = types
        .into_iter()
        .map(|ty| {
            let mut ty = ty.clone();
            namer.visit_type_mut(&mut ty);
            ty
        })
        .collect();
    let mut generics = generics.clone();
    let fresh = namer
        .fresh
        .into_iter()
        .map(|l| GenericParam::Lifetime(LifetimeParam::new(l)));
    generics.params.extend(fresh);
    Named { types, generics }
}

/// Replaces elided lifetimes with fresh names, avoiding the function's own.
struct Namer {
    /// The lifetime names already in use (without the `'`), so a fresh name never shadows one.
    taken: Vec<String>,
    /// The fresh lifetimes, in the order they were made.
    fresh: Vec<Lifetime>,
}

impl Namer {
    /// A new `'__rondo_N`, resolving at the call site (like the generics that declare it) and
    /// located at `at`, the elided spot, for errors about it.
    fn fresh(&mut self, at: Span) -> Lifetime {
        let name = (self.fresh.len()..)
            .map(|n| format!("__rondo_{n}"))
            .find(|name| !self.taken.contains(name))
            .unwrap_or_default();
        self.taken.push(name.clone());
        let lifetime = Lifetime::new(&format!("'{name}"), Span::call_site().located_at(at));
        self.fresh.push(lifetime.clone());
        lifetime
    }
}

impl VisitMut for Namer {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.is_none() {
            r.lifetime = Some(self.fresh(r.and_token.span));
        }
        visit_mut::visit_type_reference_mut(self, r);
    }

    fn visit_lifetime_mut(&mut self, lifetime: &mut Lifetime) {
        if lifetime.ident == "_" {
            *lifetime = self.fresh(lifetime.apostrophe);
        }
    }

    /// `fn(&str) -> &str`: its lifetimes are its own (late-bound), so they stay elided.
    fn visit_type_fn_ptr_mut(&mut self, _: &mut syn::TypeFnPtr) {}

    /// `Fn(&str) -> &str`: as for a `fn` pointer.
    fn visit_parenthesized_generic_arguments_mut(
        &mut self,
        _: &mut syn::ParenthesizedGenericArguments,
    ) {
    }
}

#[cfg(test)]
mod tests {
    use super::name_elided;
    use quote::ToTokens;

    /// The named types and the impl generics, as written.
    fn named(generics: &str, types: &[&str]) -> (Vec<String>, String) {
        let generics: syn::Generics = syn::parse_str(generics).expect("generics parse");
        let types: Vec<syn::Type> = types
            .iter()
            .map(|t| syn::parse_str(t).expect("type parses"))
            .collect();
        let named = name_elided(&generics, &types);
        let shown = |t: &dyn ToTokens| t.to_token_stream().to_string();
        let (impl_generics, _, _) = named.generics.split_for_impl();
        (
            named.types.iter().map(|t| shown(t)).collect(),
            shown(&impl_generics),
        )
    }

    #[test]
    fn each_elided_reference_gets_its_own_lifetime() {
        let (types, generics) = named("", &["&Package", "&[Seat]", "&str", "String"]);
        assert_eq!(
            types,
            [
                "& '__rondo_0 Package",
                "& '__rondo_1 [Seat]",
                "& '__rondo_2 str",
                "String"
            ]
        );
        assert_eq!(generics, "< '__rondo_0 , '__rondo_1 , '__rondo_2 >");
    }

    #[test]
    fn anonymous_lifetimes_are_named_and_named_ones_kept() {
        let (types, generics) = named(
            "<'a, 'b: 'a>",
            &[
                "&'_ Package",
                "Foo<'_>",
                "&'a Foo<'b>",
                "Box<dyn Trait + '_>",
                "&&str",
            ],
        );
        assert_eq!(
            types,
            [
                "& '__rondo_0 Package",
                "Foo < '__rondo_1 >",
                "& 'a Foo < 'b >",
                "Box < dyn Trait + '__rondo_2 >",
                "& '__rondo_3 & '__rondo_4 str"
            ]
        );
        assert_eq!(
            generics,
            "< 'a , 'b : 'a , '__rondo_0 , '__rondo_1 , '__rondo_2 , '__rondo_3 , '__rondo_4 >"
        );
    }

    #[test]
    fn function_pointers_and_fn_bounds_keep_their_own_lifetimes() {
        let (types, generics) = named("", &["fn(&str) -> &str", "&dyn Fn(&str) -> &str"]);
        assert_eq!(
            types,
            [
                "fn (& str) -> & str",
                "& '__rondo_0 dyn Fn (& str) -> & str"
            ]
        );
        assert_eq!(generics, "< '__rondo_0 >");
    }

    #[test]
    fn fresh_names_avoid_the_functions_own() {
        let (types, generics) = named("<'__rondo_0>", &["&'__rondo_0 A", "&B"]);
        assert_eq!(types, ["& '__rondo_0 A", "& '__rondo_1 B"]);
        assert_eq!(generics, "< '__rondo_0 , '__rondo_1 >");
    }

    #[test]
    fn no_inputs_no_generics() {
        assert_eq!(named("", &[]), (vec![], String::new()));
    }
}
