//! The Java host that runs the original challenge's aliens unmodified (games/alienwar.md, "Java
//! aliens"): the original API (`planet.Specie`, `planet.Move`, `alien.Alien`) written anew,
//! plus `planet.AlienWarHost`, which speaks this project's protocol for one alien class, and
//! `planet.SharedHost`, which runs several alien classes in one JVM.
//! The sources live in `hosts/alienwar-java/` and are built into `arena`, which compiles
//! them with each Java bot (see [`crate::JavaHost`]).

use crate::declaration::JavaHost;

/// AlienWar's Java host.
pub const JAVA_HOST: JavaHost = JavaHost {
    sources: &[
        (
            "planet/Move.java",
            include_str!("../../../../hosts/alienwar-java/planet/Move.java"),
        ),
        (
            "planet/Specie.java",
            include_str!("../../../../hosts/alienwar-java/planet/Specie.java"),
        ),
        (
            "planet/AlienWarHost.java",
            include_str!("../../../../hosts/alienwar-java/planet/AlienWarHost.java"),
        ),
        (
            "planet/SharedHost.java",
            include_str!("../../../../hosts/alienwar-java/planet/SharedHost.java"),
        ),
        (
            "alien/Alien.java",
            include_str!("../../../../hosts/alienwar-java/alien/Alien.java"),
        ),
    ],
    main_class: "planet.AlienWarHost",
    shared_main_class: "planet.SharedHost",
    package: "alien",
    imports: "import planet.Move;",
    template: (
        "MyAlien.java",
        include_str!("../../../../templates/alienwar/MyAlien.java"),
    ),
};
